// Random traces and layouts for the differential test. Times and places are
// built from decimal steps (0.12 + 0.45, 64.1 − 54.1) so float rounding at
// thresholds and deadlines is exercised, and sizes sit near every constant.

/** A decimal with `places` digits, as a person would write it. */
const decimal = (rng, low, high, places = 1) => Number((low + rng.next() * (high - low)).toFixed(places));

/** A gesture tree ({"tap": …} …) at most `depth` levels deep. */
export function gestureSpec(rng, depth = 3) {
  const leaf = depth <= 1 || rng.chance(0.45);
  if (leaf) {
    switch (rng.int(0, 2)) {
      case 0: return { tap: rng.chance(0.7) ? {} : { count: rng.int(1, 3) } };
      case 1: {
        const params = {};
        if (rng.chance(0.7)) params.minimumDuration = rng.pick([0, 0.01, 0.1, 0.45, 0.5, decimal(rng, 0, 1, 2)]);
        if (rng.chance(0.5)) params.maximumDistance = rng.pick([0, 5, 10, 10.5, decimal(rng, 0, 30)]);
        return { longPress: params };
      }
      default: {
        const params = {};
        if (rng.chance(0.8)) params.minimumDistance = rng.pick([0, 5, 10, 15, decimal(rng, 0, 30)]);
        const space = rng.int(0, 3);
        if (space === 1) params.coordinateSpace = 'global';
        if (space === 2) params.coordinateSpace = 'local';
        if (space === 3) params.coordinateSpace = { named: [decimal(rng, -50, 50), decimal(rng, -50, 50)] };
        if (rng.chance(0.2)) params.projection = rng.pick([0, 0.1, 0.25, 0.5]);
        return { drag: params };
      }
    }
  }
  const kind = rng.pick(['sequenced', 'simultaneously', 'exclusively']);
  return { [kind]: [gestureSpec(rng, depth - 1), gestureSpec(rng, depth - 1)] };
}

/** Touch events near `origin`: fingers down and up, moves (often tiny, sometimes far), cancels, ticks. */
function touchEvents(rng, { count, width, height, extra = [], extraChance = 0 }) {
  const events = [];
  let t = rng.pick([0, 0.12, decimal(rng, 0, 1, 2)]);
  let finger = { x: decimal(rng, -20, width + 20), y: decimal(rng, -20, height + 20) };
  let fingers = 0;
  for (let i = 0; i < count; i += 1) {
    t += rng.pick([0, 0.01, 0.05, 0.1, 0.12, 0.33, 0.45, 0.5, 0.7, decimal(rng, 0, 0.8, 2)]);
    t = Number(t.toFixed(rng.pick([2, 3, 9])));
    const roll = rng.next();
    if (extra.length > 0 && rng.chance(extraChance)) {
      events.push({ t, [rng.pick(extra)]: true });
      continue;
    }
    if (rng.chance(0.15)) {
      finger = { x: decimal(rng, -20, width + 20), y: decimal(rng, -20, height + 20) };
    } else {
      const step = rng.pick([0, 1, 5, 9.9, 10, 10.1, 14.9, 15, 30, 45, 45.1, decimal(rng, 0, 60)]);
      const angle = rng.pick([0, Math.PI / 2, Math.PI, -Math.PI / 2, rng.next() * 2 * Math.PI]);
      finger = { x: Number((finger.x + step * Math.cos(angle)).toFixed(1)), y: Number((finger.y + step * Math.sin(angle)).toFixed(1)) };
    }
    const at = [finger.x, finger.y];
    if (fingers === 0 || roll < 0.05) {
      if (fingers === 0 || rng.chance(0.3)) { events.push({ t, down: at }); fingers += 1; continue; }
    }
    if (roll < 0.62) events.push({ t, move: at });
    else if (roll < 0.82) { events.push({ t, up: at }); fingers = Math.max(0, fingers - 1); }
    else if (roll < 0.86) { events.push({ t, cancel: true }); fingers = 0; }
    else events.push({ t, tick: true });
  }
  return events;
}

/** A gesture trace (no expect). */
export function gestureTrace(rng, name) {
  const trace = { name, gesture: gestureSpec(rng) };
  if (rng.chance(0.3)) trace.view = { frame: [decimal(rng, 0, 100), decimal(rng, 0, 100), 80, 80], offsetFollowsTranslation: rng.chance(0.7) };
  trace.events = touchEvents(rng, { count: rng.int(1, 14), width: 200, height: 200 });
  return trace;
}

/** A deck trace (no expect): a grid near the phone's and tablet's, buttons, touches and app events. */
export function deckTrace(rng, name) {
  const slotsPerPage = rng.pick([12, 12, 12, 6, 1, 8, 16]);
  const columns = Math.min(slotsPerPage, rng.pick([3, 4, 3, 4, 1, 2, 5]));
  const size = rng.pick([[390, 560], [800, 500], [320, 480], [decimal(rng, 150, 900), decimal(rng, 150, 900)]]);
  const pages = rng.int(1, 4);
  const filled = [];
  for (let i = rng.int(0, Math.min(14, pages * slotsPerPage)); i > 0; i -= 1) filled.push([rng.int(0, pages - 1), rng.int(0, slotsPerPage - 1)]);
  const deck = { size, columns, pages, page: rng.int(0, pages - 1), filled, arrange: rng.chance(0.3), protocol: rng.pick([7, 7, 7, 6, 8]) };
  if (slotsPerPage !== 12) deck.slotsPerPage = slotsPerPage;
  if (rng.chance(0.1)) deck.spacing = rng.pick([0, 8, 14, 20]);
  // What the renderer draws is compared too, after every event.
  if (rng.chance(0.4)) deck.scene = true;
  const events = touchEvents(rng, {
    count: rng.int(2, 24), width: size[0], height: size[1],
    extra: ['done', 'lock', 'disconnect', 'background', 'released', 'released'], extraChance: 0.06,
  });
  return { name, deck, events };
}

/** A pager trace (no expect): a feed or a deck-like strip. */
export function pagerTrace(rng, name) {
  const axis = rng.pick(['horizontal', 'vertical']);
  const size = [rng.pick([390, 700, decimal(rng, 100, 800)]), rng.pick([700, 560, decimal(rng, 100, 800)])];
  const count = rng.int(1, 5);
  const pager = {
    axis, size, count, index: rng.int(0, count - 1),
    flip: rng.chance(0.5) ? { translation: rng.pick([0.22, 0.5, decimal(rng, 0.05, 0.9, 2)]) } : { predictedEnd: rng.pick([1 / 3, 0.25]) },
    gap: rng.pick([0, 32, 16]), minimumDistance: rng.pick([10, 0, 15]),
  };
  return { name, pager, events: touchEvents(rng, { count: rng.int(1, 12), width: size[0], height: size[1] }) };
}

/**
 * A damaged copy of a trace's text: keys removed or mistyped, values of the
 * wrong type, the text cut short or given a stray character — every
 * refusal must be worded alike by both tools.
 */
export function damagedTrace(rng, trace) {
  const copy = structuredClone(trace);
  const damage = rng.int(0, 9);
  const anyObject = (value, depth = 0) => {
    if (value === null || typeof value !== 'object') return null;
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const nested = entries.filter(([, v]) => v !== null && typeof v === 'object');
    if (nested.length > 0 && rng.chance(0.6 + depth * 0.05)) return anyObject(rng.pick(nested)[1], depth + 1) ?? value;
    return value;
  };
  const target = anyObject(copy);
  const keys = target && !Array.isArray(target) ? Object.keys(target) : [];
  switch (damage) {
    case 0: if (keys.length) delete target[rng.pick(keys)]; break;
    case 1: if (keys.length) target[rng.pick(keys)] = rng.pick([null, true, 'x', -1, 1.5, [], {}, [1], [1, 2, 3], 1e300]); break;
    case 2: if (target) target[rng.pick(['bogus', 'view', 'expect', 'tick', 't', 'down'])] = rng.pick([true, [0, 0], 1, {}]); break;
    case 3: if (Array.isArray(target) && target.length) target[rng.int(0, target.length - 1)] = rng.pick([null, 'x', 7, { t: 1 }, [1, 2]]); break;
    case 4: if (copy.events?.length > 1) copy.events.reverse(); break;
    default: break;
  }
  let text = JSON.stringify(copy, null, rng.chance(0.5) ? 1 : undefined);
  if (damage === 5) text = text.slice(0, rng.int(0, text.length - 1));
  if (damage === 6) { const i = rng.int(0, text.length); text = text.slice(0, i) + rng.pick(['x', ',', '}', ']', '"', '\\', '0', '-', ' ', '\n', '.', 'e', '\u0001', 'tru', '01', '1e400', '"\\u12"', '"\\ud800"', '"\\q"', '[1,]']) + text.slice(i); }
  if (damage === 7) text = text.replace(/"t": ?([0-9.]+)/, '"t": -$1');
  return text;
}

const names = ['Terminal', 'Mail', 'Build', 'Deploy', 'Music', '정리', '🎵', 'a', 'A', 'Terminal '];
const texts = ['x', 'echo hi', '/tmp', 'https://example.org', 'line\nbreak', 'quote"back\\slash', 'tab\there', '\u0007', 'é'];

/** A plain JSON value for plugin settings (integral numbers are integers; non-integral ones keep a fraction). */
function settingsValue(rng, depth) {
  switch (rng.int(0, depth > 2 ? 3 : 5)) {
    case 0: return rng.int(-5, 500);
    case 1: return rng.pick([2.5, -0.125, 1e-7, 3.14159]);
    case 2: return rng.pick([true, false, null]);
    case 3: return rng.pick(texts);
    case 4: return Array.from({ length: rng.int(0, 3) }, () => settingsValue(rng, depth + 1));
    default: return Object.fromEntries(Array.from({ length: rng.int(0, 3) }, () => [rng.pick(['b', 'a', 'z', 'key', 'A']), settingsValue(rng, depth + 1)]));
  }
}

/** A valid button of the wire's JSON; `faulty` sometimes breaks one of its rules. */
export function button(rng, faulty = false) {
  const kind = rng.pick(['run', 'run', 'open', 'page', 'profile', 'plugin']);
  let action;
  switch (kind) {
    case 'run':
      action = { run: rng.pick(texts) };
      if (rng.chance(0.3)) action.cwd = rng.pick(['/tmp', '~']);
      if (rng.chance(0.3)) action.timeout = rng.pick([1, 60, 0.5, 2.25, 1e-3, 600]);
      if (rng.chance(0.2)) action.follow = rng.pick(['watch-it', 'tail -f x']);
      break;
    case 'open': action = { open: rng.pick(texts) }; break;
    case 'page': action = { page: rng.pick(['next', 'previous', 0, 1, 3]) }; break;
    case 'profile': action = { profile: rng.pick(['work', 'home']) }; break;
    default:
      action = { plugin: rng.pick(['counter', 'hold']), command: rng.pick(['add', 'talk']) };
      if (rng.chance(0.6)) action.settings = Object.fromEntries(Array.from({ length: rng.int(0, 3) }, () => [rng.pick(['step', 'b', 'a', 'nested']), settingsValue(rng, 1)]));
  }
  const out = { name: rng.pick(names) };
  if (rng.chance(0.3)) out.icon = rng.pick(['terminal', '🎵', 'x']);
  out.action = action;
  // docs/faces.md §1, in the normal form the host sends (what a device's copy holds).
  if (rng.chance(0.25)) out.style = style(rng);
  if (rng.chance(0.2)) {
    out.states = ['live', 'muted', 'on-air', 'x_1'].slice(0, rng.int(1, 4)).map((id) => {
      const state = { id };
      if (rng.chance(0.4)) state.name = rng.pick(['Off', 'On air']);
      if (rng.chance(0.3)) state.icon = rng.pick(['🔇', 'x']);
      if (rng.chance(0.4)) state.style = style(rng);
      return state;
    });
  }
  if (faulty) {
    switch (rng.int(0, 4)) {
      case 0: out.name = rng.pick(['', ' ', '\u200b', '\t\n']); break;
      case 1: out.action = { run: '' }; break;
      case 2: out.action = { run: 'x', timeout: rng.pick([0, -1]) }; break;
      case 3: out.action = { page: -1 }; break;
      default: out.action = { open: 'x', run: 'y' }; break;
    }
  }
  return out;
}

/** A normalised style: one or both colours, palette names or lower-case hex. */
function style(rng) {
  const colour = () => rng.pick(['red', 'grey', 'white', '#1f6f3f', '#abc']);
  const which = rng.int(0, 2);
  const out = {};
  if (which !== 1) out.color = colour();
  if (which !== 0) out.background = colour();
  return out;
}

/** A layout of the wire's JSON: pages with gaps, sometimes not in normal form (the reader normalizes). */
export function layout(rng) {
  const slotsPerPage = rng.pick([12, 12, 1, 2, 3, 4, 6]);
  const pages = Array.from({ length: rng.int(1, 4) }, () => {
    const page = { buttons: Array.from({ length: slotsPerPage }, () => (rng.chance(0.4) ? button(rng) : null)) };
    if (rng.chance(0.15)) page.title = rng.pick(['Work', 'Home', '']);
    return page;
  });
  return { slotsPerPage, pages };
}

/** A random edit of `base` (the wire's JSON) for deck-layout-replay. */
export function layoutCase(rng, base) {
  const pageCount = base.pages.length;
  const slots = base.slotsPerPage;
  const slot = () => ({
    page: rng.chance(0.9) ? rng.int(0, pageCount) : rng.pick([-1, pageCount + 1, 10_000]),
    index: rng.chance(0.92) ? rng.int(0, slots - 1) : rng.pick([-1, slots, 300]),
  });
  const buttonAt = (s) => base.pages[s.page]?.buttons[s.index] ?? null;
  const op = rng.pick(['move', 'move', 'move', 'drop', 'drop', 'set', 'clear']);
  const from = slot();
  const to = rng.chance(0.1) ? { ...from } : slot();
  switch (op) {
    case 'move': {
      const held = buttonAt(from);
      const expecting = held !== null && rng.chance(0.75) ? held : button(rng);
      return { layout: base, op, fromPage: from.page, fromIndex: from.index, toPage: to.page, toIndex: to.index, button: expecting };
    }
    case 'drop':
      return { layout: base, op, fromPage: from.page, fromIndex: from.index, toPage: to.page, toIndex: to.index };
    case 'set':
      return { layout: base, op, page: from.page, index: from.index, button: button(rng, rng.chance(0.2)) };
    default: {
      const c = { layout: base, op, page: from.page, index: from.index };
      const held = buttonAt(from);
      if (rng.chance(0.6)) c.button = held !== null && rng.chance(0.7) ? held : button(rng);
      return c;
    }
  }
}
