// The layout rules the device needs: a port of DeckModel's DeckLayout (move
// with its stale check, set, clear, normalize), DeckButton.validate and the
// JSON shapes of PROTOCOL.md §3 / docs/json.md. The device's copy and the
// host's live layout obey the same rules, so what the device draws right
// after a drop is what the host will compute.
//
// Shapes (plain JSON, as on the wire):
//   layout {slotsPerPage, pages: [page]}
//   page   {title?, buttons: [button | null]}   (exactly slotsPerPage slots)
//   button {name, icon?, action, style?, states?}   (style and states: docs/faces.md §1, kept as the host sent them)
//   action {run, cwd?, timeout?, follow?} | {open} | {page: "next"|"previous"|n} | {profile} | {plugin, command, settings?}
import { DeckConstants } from './constants.mjs';

/** A layout edit or a button refused; `message` is DeckModelError's sentence. */
export class DeckModelError extends Error {
  /** @param {'outOfRange'|'stale'|'invalidButton'|'invalidLayout'|'malformed'} kind @param {string} message */
  constructor(kind, message) {
    super(message);
    this.name = 'DeckModelError';
    this.kind = kind;
  }
}

const kindKeys = ['run', 'open', 'page', 'profile', 'plugin'];
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const typeName = (value) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object'
  : typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : typeof value);

/**
 * True when a label shows nothing: empty, or only Unicode White_Space and
 * U+200B (String.isBlankLabel: the host refuses exactly these names).
 * @param {string} name
 */
export function isBlankLabel(name) {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000]*$/u.test(name);
}

/** Deep equality of plain JSON data (buttons, actions, plugin settings). */
function jsonEqual(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  const other = Object.keys(b).filter((k) => b[k] !== undefined);
  return keys.length === other.length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/**
 * Whether two buttons are the same button (name, icon, action, and the level-8
 * style and states): the stale check compares with this, so two buttons that
 * merely share a name differ.
 * @param {object|null} a @param {object|null} b
 */
export function sameButton(a, b) {
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  return a.name === b.name && (a.icon ?? null) === (b.icon ?? null) && jsonEqual(canonicalAction(a.action), canonicalAction(b.action))
    && jsonEqual(a.style ?? null, b.style ?? null) && jsonEqual(a.states ?? null, b.states ?? null);
}

/** An action with only its kind's fields, `null` optionals left out (what DeckAction holds). */
function canonicalAction(action) {
  const kind = kindKeys.find((key) => action[key] !== undefined && action[key] !== null);
  const out = { [kind]: action[kind] };
  const keep = { run: ['cwd', 'timeout', 'follow'], plugin: ['command', 'settings'] }[kind] ?? [];
  for (const key of keep) if (action[key] !== undefined && action[key] !== null) out[key] = action[key];
  return out;
}

/**
 * Checks what JSON cannot express as a type (DeckButton.validate): a
 * non-blank name and action fields that make sense.
 * @param {object} button @throws {DeckModelError}
 */
export function validateButton(button) {
  const invalid = (message) => new DeckModelError('invalidButton', message);
  if (isBlankLabel(button.name)) throw invalid('a button needs a non-empty name');
  const { name, action } = button;
  const kinds = kindKeys.filter((key) => action[key] !== undefined && action[key] !== null);
  if (kinds.length !== 1) {
    throw invalid(`an action needs exactly one of run, open, page, profile, plugin (found ${kinds.length ? kinds.join(' and ') : 'none'})`);
  }
  switch (kinds[0]) {
    case 'run': {
      if (action.run === '') throw invalid(`button '${name}': run needs a command`);
      if (action.follow === '') throw invalid(`button '${name}': follow needs a command`);
      const timeout = action.timeout ?? null;
      if (timeout !== null && !(timeout > 0 && Number.isFinite(timeout))) throw invalid(`button '${name}': run timeout must be a positive number of seconds`);
      break;
    }
    case 'open': if (action.open === '') throw invalid(`button '${name}': open needs a URL or path`); break;
    case 'page': if (typeof action.page === 'number' && action.page < 0) throw invalid(`button '${name}': page numbers start at 0`); break;
    case 'profile': if (action.profile === '') throw invalid(`button '${name}': profile needs a name`); break;
    default:
      if (action.plugin === '') throw invalid(`button '${name}': plugin needs an id`);
      if (action.command === '') throw invalid(`button '${name}': plugin needs a command`);
      if (action.settings != null && depthOf(action.settings) > DeckConstants.maximumSettingsDepth) {
        throw invalid(`button '${name}': settings nest more than ${DeckConstants.maximumSettingsDepth} levels deep`);
      }
  }
}

function depthOf(value) {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (isObject(value)) return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

/** A button as the host writes it: keys in PROTOCOL.md's order, absent optionals left out. */
function writeButton(button) {
  if (button === null) return null;
  const out = { name: button.name };
  if (button.icon !== undefined && button.icon !== null) out.icon = button.icon;
  out.action = canonicalAction(button.action);
  if (button.style != null) out.style = button.style;
  if (button.states != null) out.states = button.states;
  return out;
}

/**
 * Reads one button of the wire's JSON (a `moveButton`'s, a settings sheet's),
 * checking its types and rules as the host does.
 * @param {unknown} value @param {string} [path] @returns {object} @throws {DeckModelError}
 */
export function buttonFromJSON(value, path = 'button') {
  return readButton(value, path);
}

function readButton(value, path) {
  const malformed = (what) => new DeckModelError('malformed', `'${path}${what}`);
  if (!isObject(value)) throw new DeckModelError('malformed', `'${path}' must be a button object, not ${typeName(value)}`);
  if (typeof value.name !== 'string') throw malformed(`.name' must be a string, not ${typeName(value.name ?? null)}`);
  if (value.icon != null && typeof value.icon !== 'string') throw malformed(`.icon' must be a string, not ${typeName(value.icon)}`);
  if (!isObject(value.action)) throw malformed(`.action' must be an action object, not ${typeName(value.action ?? null)}`);
  const action = value.action;
  const kind = kindKeys.find((key) => action[key] != null);
  const strings = { run: ['run', 'cwd', 'follow'], open: ['open'], profile: ['profile'], plugin: ['plugin', 'command'] }[kind] ?? [];
  for (const key of strings) {
    const required = key === kind || (kind === 'plugin' && key === 'command');
    if ((required || action[key] != null) && typeof action[key] !== 'string') {
      throw malformed(`.action.${key}' must be a string, not ${typeName(action[key] ?? null)}`);
    }
  }
  if (kind === 'run' && action.timeout != null && typeof action.timeout !== 'number') throw malformed(`.action.timeout' must be a number, not ${typeName(action.timeout)}`);
  if (kind === 'page' && !(Number.isInteger(action.page) || action.page === 'next' || action.page === 'previous')) {
    if (typeof action.page === 'string') throw new DeckModelError('invalidButton', `a page action goes to next, previous or a page number, not '${action.page}'`);
    throw malformed(`.action.page' must be next, previous or a page number, not ${typeName(action.page)}`);
  }
  if (kind === 'plugin' && action.settings != null && !isObject(action.settings)) throw malformed(`.action.settings' must be an object, not ${typeName(action.settings)}`);
  if (value.style != null && !isObject(value.style)) throw malformed(`.style' must be an object, not ${typeName(value.style)}`);
  if (value.states != null && !Array.isArray(value.states)) throw malformed(`.states' must be a list, not ${typeName(value.states)}`);
  const button = { name: value.name, icon: value.icon ?? undefined, style: value.style ?? undefined, states: value.states ?? undefined, action };
  validateButton(button);
  return writeButton(button);
}

/**
 * The whole layout: pages of equal size, in normal form after every edit
 * (trailing empty pages trimmed, then exactly one empty page).
 */
export class DeckLayout {
  /**
   * Makes a layout and puts it in normal form; short pages are padded, a page
   * longer than `slotsPerPage` or a slot count outside 1…256 is refused.
   * @param {{slotsPerPage?:number, pages?:{title?:string, buttons:(object|null)[]}[]}} [options]
   * @throws {DeckModelError}
   */
  constructor({ slotsPerPage = DeckConstants.defaultSlotsPerPage, pages = [] } = {}) {
    const max = DeckConstants.maximumSlotsPerPage;
    if (!(Number.isInteger(slotsPerPage) && slotsPerPage >= 1 && slotsPerPage <= max)) {
      throw new DeckModelError('invalidLayout', `slotsPerPage must be between 1 and ${max}, not ${slotsPerPage}`);
    }
    if (pages.length > DeckConstants.maximumPages) {
      throw new DeckModelError('invalidLayout', `a layout may hold at most ${DeckConstants.maximumPages} pages, not ${pages.length}`);
    }
    /** Slots on every page. */
    this.slotsPerPage = slotsPerPage;
    /** The pages: {title?, buttons: (button|null)[]}; the last one is always empty. */
    this.pages = pages.map((page, number) => {
      if (page.buttons.length > slotsPerPage) {
        throw new DeckModelError('invalidLayout', `page ${number} has ${page.buttons.length} slots but pages hold ${slotsPerPage}`);
      }
      const buttons = page.buttons.map((b) => (b == null ? null : writeButton(b)));
      while (buttons.length < slotsPerPage) buttons.push(null);
      return page.title != null ? { title: page.title, buttons } : { buttons };
    });
    this.normalize();
  }

  /**
   * Reads the host's layout JSON (PROTOCOL.md §3): every button checked, every
   * page of exactly `slotsPerPage` slots, the result normalized.
   * @param {unknown} value a parsed JSON value @returns {DeckLayout} @throws {DeckModelError}
   */
  static fromJSON(value) {
    if (!isObject(value)) throw new DeckModelError('malformed', `the layout must be a layout object, not ${typeName(value)}`);
    const slots = value.slotsPerPage ?? DeckConstants.defaultSlotsPerPage;
    if (!Number.isInteger(slots)) throw new DeckModelError('malformed', `'slotsPerPage' must be an integer, not ${typeName(slots)}`);
    if (!Array.isArray(value.pages)) throw new DeckModelError('malformed', `'pages' must be an array of pages, not ${typeName(value.pages ?? null)}`);
    const pages = value.pages.map((page, p) => {
      if (!isObject(page)) throw new DeckModelError('malformed', `'pages[${p}]' must be a page object, not ${typeName(page)}`);
      if (!Array.isArray(page.buttons)) throw new DeckModelError('malformed', `'pages[${p}].buttons' must be an array of buttons or null, not ${typeName(page.buttons ?? null)}`);
      if (page.title != null && typeof page.title !== 'string') throw new DeckModelError('malformed', `'pages[${p}].title' must be a string, not ${typeName(page.title)}`);
      const buttons = page.buttons.map((b, i) => (b === null ? null : readButton(b, `pages[${p}].buttons[${i}]`)));
      if (buttons.length !== slots) throw new DeckModelError('malformed', `'pages[${p}]': a page has ${buttons.length} slots but pages hold ${slots}`);
      return { title: page.title ?? undefined, buttons };
    });
    return new DeckLayout({ slotsPerPage: slots, pages });
  }

  /** The layout as the host writes it ({slotsPerPage, pages}). */
  toJSON() {
    return {
      slotsPerPage: this.slotsPerPage,
      pages: this.pages.map((page) => (page.title != null ? { title: page.title, buttons: page.buttons } : { buttons: page.buttons })),
    };
  }

  /** An independent copy. */
  copy() { return DeckLayout.fromTrusted(this.slotsPerPage, this.pages); }

  /** @private For pages already checked. */
  static fromTrusted(slotsPerPage, pages) {
    const layout = Object.create(DeckLayout.prototype);
    layout.slotsPerPage = slotsPerPage;
    layout.pages = pages.map((page) => ({ ...page, buttons: [...page.buttons] }));
    return layout;
  }

  /** The button in a slot, or null when the slot is empty or does not exist. */
  button(page, index) {
    if (!(Number.isInteger(page) && page >= 0 && page < this.pages.length && Number.isInteger(index) && index >= 0 && index < this.slotsPerPage)) return null;
    return this.pages[page].buttons[index];
  }

  /** Every button with its position, page by page: [{page, index, button}]. */
  get placedButtons() {
    const out = [];
    this.pages.forEach((p, page) => p.buttons.forEach((button, index) => { if (button !== null) out.push({ page, index, button }); }));
    return out;
  }

  /** True when the layout is in normal form (PROTOCOL.md §3). */
  get isNormal() {
    const last = this.pages.at(-1);
    if (!last || !isEmptyPage(last)) return false;
    if (!this.pages.every((p) => p.buttons.length === this.slotsPerPage)) return false;
    return this.pages.length === 1 || !isEmptyPage(this.pages[this.pages.length - 2]);
  }

  /** Throws `outOfRange` unless the slot exists; the trailing empty page is a valid place. */
  checkRange(page, index) {
    if (Number.isInteger(page) && page >= 0 && page < this.pages.length && Number.isInteger(index) && index >= 0 && index < this.slotsPerPage) return;
    if (page < 0 || page >= this.pages.length || !Number.isInteger(page)) {
      throw new DeckModelError('outOfRange', `page ${page} does not exist (the layout has pages 0 to ${this.pages.length - 1})`);
    }
    throw new DeckModelError('outOfRange', `slot ${index} does not exist (a page has slots 0 to ${this.slotsPerPage - 1})`);
  }

  /**
   * Moves the button in one slot to another, as one atomic step: an empty
   * target receives it, a filled one swaps, the same slot changes nothing.
   * `expecting` is the button the device picked up: if the source no longer
   * holds it, the move is refused as `stale`, so a number alone never moves
   * the wrong button. Never a set then a clear: a connection lost between
   * the two would double or lose a button. On a throw nothing changed.
   * @throws {DeckModelError}
   */
  move({ fromPage, fromIndex, toPage, toIndex, expecting }) {
    this.checkRange(fromPage, fromIndex);
    this.checkRange(toPage, toIndex);
    if (!sameButton(this.pages[fromPage].buttons[fromIndex], expecting)) {
      throw new DeckModelError('stale', `slot ${fromPage}/${fromIndex} no longer holds '${expecting.name}'`);
    }
    if (fromPage === toPage && fromIndex === toIndex) return;
    const button = writeButton(expecting);
    this.pages[fromPage].buttons[fromIndex] = this.pages[toPage].buttons[toIndex];
    this.pages[toPage].buttons[toIndex] = button;
    this.normalize();
  }

  /** Puts `button` in a slot, replacing whatever is there. @throws {DeckModelError} */
  set({ page, index, button }) {
    this.checkRange(page, index);
    validateButton(button);
    this.pages[page].buttons[index] = writeButton(button);
    this.normalize();
  }

  /**
   * Empties a slot; with `expecting`, only if it still holds exactly that
   * button (`stale` otherwise, an empty slot included). @throws {DeckModelError}
   */
  clear({ page, index, expecting = null }) {
    this.checkRange(page, index);
    if (expecting !== null && !sameButton(this.pages[page].buttons[index], expecting)) {
      throw new DeckModelError('stale', `slot ${page}/${index} no longer holds '${expecting.name}'`);
    }
    this.pages[page].buttons[index] = null;
    this.normalize();
  }

  /**
   * Normal form: trailing empty pages trimmed, then exactly one empty page
   * appended. Empty pages between filled ones stay (a person left them there).
   */
  normalize() {
    while (this.pages.length > 0 && isEmptyPage(this.pages.at(-1))) this.pages.pop();
    this.pages.push({ buttons: new Array(this.slotsPerPage).fill(null) });
  }
}

/** True when no slot holds a button (a title alone does not make a page filled). */
function isEmptyPage(page) {
  return page.buttons.every((b) => b === null);
}
