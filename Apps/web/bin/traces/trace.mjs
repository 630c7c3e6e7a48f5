// A trace file (GESTURES.md §3): a port of Modules/DeckGestureTraces/Trace.swift,
// TraceEvent.swift, GestureSpec.swift, TraceEncodable.swift, DeckReplay.swift
// and PagerReplay.swift, so both tools read, refuse and replay alike.
import fs from 'node:fs';
import path from 'node:path';
import { parseJSON, NotJSON, JObject, Line, jsonText, formatNumber } from './json.mjs';
import { TraceObject, TraceError, fail } from './trace-object.mjs';
import { DeckConstants } from '../../engine/constants.mjs';
import { DeckGrid, DeckGeometryError } from '../../engine/grid.mjs';
import { CoordinateSpace, TapRecognizer, LongPressRecognizer, DragRecognizer, defaultProjection } from '../../engine/recognizers.mjs';
import { SequenceRecognizer, SimultaneousRecognizer, ExclusiveRecognizer } from '../../engine/combinators.mjs';
import { GestureTracker } from '../../engine/tracker.mjs';
import { ArrangeSession, DeckGesturesError } from '../../engine/arrange-session.mjs';
import { SwipePager, PagerSession } from '../../engine/swipe-pager.mjs';

/** Event kinds in the Swift tool's order (its error messages list them so). */
const allKinds = ['down', 'move', 'up', 'cancel', 'tick', 'done', 'lock', 'disconnect', 'background', 'released'];
const touchKinds = ['down', 'move', 'up', 'cancel', 'tick'];
const deckKinds = ['done', 'lock', 'disconnect', 'background', 'released'];

/** Reads and checks the trace in the file at `file`. @throws {TraceError} */
export function loadTrace(file) {
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    throw new TraceError(file, `cannot be read (${readFailure(file)})`);
  }
  try {
    return parseTrace(bytes, defaultName(file));
  } catch (error) {
    if (error instanceof TraceError) throw error.in(file);
    throw error;
  }
}

function readFailure(file) {
  try {
    return fs.statSync(file).isDirectory() ? 'it is a folder' : 'permission denied or not a regular file';
  } catch {
    return 'no such file';
  }
}

/** The file name without its extension, as URL.deletingPathExtension().lastPathComponent gives it. */
function defaultName(file) {
  const base = path.basename(file);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Parses and checks a trace from JSON bytes.
 * @param {Uint8Array} bytes @param {string} [name] @returns {{name:string, subject:object, events:object[], expect:unknown[]|null}}
 */
export function parseTrace(bytes, name = 'trace') {
  let document;
  try {
    document = parseJSON(bytes);
  } catch (error) {
    if (error instanceof NotJSON) throw fail(`not valid JSON (${error.message})`);
    throw error;
  }
  // Other top-level keys are notes ("comment", "why", a later version's keys).
  const root = new TraceObject(document, 'the trace');
  const traceName = root.string('name', name);
  const subjects = ['gesture', 'deck', 'pager'].filter((k) => root.get(k) !== undefined);
  if (subjects.length !== 1) throw fail('a trace needs exactly one of "gesture", "deck" or "pager"');
  const kind = subjects[0];
  const body = root.get(kind);
  if (kind !== 'gesture' && root.get('view') !== undefined) throw fail('"view" belongs to gesture traces');
  let subject;
  let kinds = touchKinds;
  if (kind === 'gesture') {
    const views = [];
    if (root.get('view') !== undefined) views.push(readView(root.get('view'), 'view'));
    const spec = parseSpec(body, 'gesture', views);
    const distinct = views.filter((v, i) => views.findIndex((w) => sameView(v, w)) === i);
    if (distinct.length > 1) throw fail("the trace gives its gesture's view more than once, differently; a gesture tree has one view");
    subject = { kind: 'gesture', spec, view: views[0] ?? null };
  } else if (kind === 'deck') {
    kinds = touchKinds.concat(deckKinds);
    const setup = readDeck(body);
    deckSession(setup);
    subject = { kind: 'deck', setup };
  } else {
    subject = { kind: 'pager', setup: readPager(body) };
  }
  const eventValues = root.get('events');
  if (!Array.isArray(eventValues)) throw fail('the trace needs "events": an array of events');
  const events = [];
  eventValues.forEach((value, index) => {
    const event = readEvent(value, index, kinds);
    const previous = events.at(-1);
    if (previous && event.time < previous.time) {
      throw fail(`events[${index}] at t=${formatNumber(event.time)} comes before the event before it `
        + `(t=${formatNumber(previous.time)}); events must be in time order`);
    }
    events.push(event);
  });
  let expect = null;
  const expectValue = root.get('expect');
  if (expectValue !== undefined) {
    if (!Array.isArray(expectValue)) throw fail('"expect" must be an array of callbacks');
    expectValue.forEach((item, index) => {
      const callback = new TraceObject(item, `expect[${index}]`);
      callback.number('t');
      callback.string('cb');
    });
    expect = expectValue;
  }
  return { name: traceName, subject, events, expect };
}

function readEvent(value, index, kinds) {
  const object = new TraceObject(value, `events[${index}]`);
  const time = object.number('t');
  if (!(time >= 0)) throw fail(`events[${index}].t must not be negative`);
  const named = object.keys.filter((k) => k !== 't');
  const key = named[0];
  if (named.length !== 1 || !allKinds.includes(key) || !kinds.includes(key)) {
    const choices = allKinds.filter((k) => kinds.includes(k)).join(', ');
    throw fail(`events[${index}] needs "t" and exactly one of ${choices} (found: ${named.join(', ')})`);
  }
  if (key === 'down' || key === 'move' || key === 'up') return { time, kind: key, location: object.pair(key) };
  if (object.get(key) !== true) throw fail(`events[${index}].${key} must be true`);
  return { time, kind: key, location: { x: 0, y: 0 } };
}

function readView(value, at) {
  const object = new TraceObject(value, at);
  object.allow(['frame', 'offsetFollowsTranslation']);
  if (object.get('frame') === undefined) throw fail(`${at} needs 'frame'`);
  const [x, y, width, height] = TraceObject.numbers(object.get('frame'), 4, `${at}.frame`);
  return { frame: { x, y, width, height }, offsetFollowsTranslation: object.bool('offsetFollowsTranslation', false) };
}

const sameView = (a, b) => a.offsetFollowsTranslation === b.offsetFollowsTranslation
  && ['x', 'y', 'width', 'height'].every((k) => a.frame[k] === b.frame[k]);

const gestureNames = 'tap, longPress, drag, sequenced, simultaneously, exclusively';

function parseSpec(value, at, views) {
  const node = new TraceObject(value, at);
  if (node.get('view') !== undefined) views.push(readView(node.get('view'), `${at}.view`));
  const kinds = node.keys.filter((k) => k !== 'view');
  if (kinds.length !== 1) throw fail(`${at} needs exactly one of ${gestureNames}`);
  const kind = kinds[0];
  const inner = `${at}.${kind}`;
  const body = node.get(kind);
  switch (kind) {
    case 'tap': {
      const params = new TraceObject(body, inner);
      params.allow(['count']);
      return { kind, count: params.int('count', 1, 1, 100) };
    }
    case 'longPress': {
      const params = new TraceObject(body, inner);
      params.allow(['minimumDuration', 'maximumDistance']);
      return { kind, minimumDuration: params.number('minimumDuration', 0.5), maximumDistance: params.number('maximumDistance', 10) };
    }
    case 'drag': {
      const params = new TraceObject(body, inner);
      params.allow(['minimumDistance', 'coordinateSpace', 'projection', 'view']);
      if (params.get('view') !== undefined) views.push(readView(params.get('view'), `${inner}.view`));
      const minimumDistance = params.number('minimumDistance', 10);
      const coordinateSpace = readSpace(params.get('coordinateSpace'), `${inner}.coordinateSpace`);
      return { kind, minimumDistance, coordinateSpace, projection: params.number('projection', defaultProjection) };
    }
    case 'sequenced': case 'simultaneously': case 'exclusively': {
      if (!(Array.isArray(body) && body.length === 2)) throw fail(`${inner} must be an array of two gestures`);
      const a = parseSpec(body[0], `${inner}[0]`, views);
      const b = parseSpec(body[1], `${inner}[1]`, views);
      return { kind, a, b };
    }
    default:
      throw fail(`${at} has an unknown gesture '${kind}' (known: ${gestureNames})`);
  }
}

function readSpace(value, at) {
  if (value === undefined || value === 'local') return CoordinateSpace.local;
  if (value === 'global') return CoordinateSpace.global;
  if (value instanceof JObject) {
    const named = new TraceObject(value, at);
    named.allow(['named']);
    return CoordinateSpace.named(named.pair('named'));
  }
  throw fail(`${at} must be "local", "global" or {"named": [x, y]}, not ${jsonText(value)}`);
}

/**
 * The recognizer a spec describes, with how to write its values: `encode`
 * gives the trace JSON, `translation` what a bound offset would follow.
 */
function build(spec) {
  switch (spec.kind) {
    case 'tap': return { recognizer: new TapRecognizer({ count: spec.count }), encode: () => null, translation: () => null };
    case 'longPress':
      return { recognizer: new LongPressRecognizer(spec), encode: (v) => v, translation: () => null };
    case 'drag': {
      const encode = (v) => {
        const t = v.translation;
        const p = v.predictedEndTranslation;
        return new Line([['location', [v.location.x, v.location.y]], ['startLocation', [v.startLocation.x, v.startLocation.y]],
          ['translation', [t.width, t.height]], ['velocity', [v.velocity.width, v.velocity.height]],
          ['predictedEndTranslation', [p.width, p.height]]]);
      };
      return { recognizer: new DragRecognizer(spec), encode, translation: (v) => v.translation };
    }
    default: {
      const a = build(spec.a);
      const b = build(spec.b);
      if (spec.kind === 'sequenced') {
        return {
          recognizer: new SequenceRecognizer(a.recognizer, b.recognizer),
          encode: (v) => (v.kind === 'first' ? new Line([['first', a.encode(v.value)]])
            : new Line([['second', [a.encode(v.first), v.second === null ? null : b.encode(v.second)]]])),
          // The part running now is the one a bound offset follows.
          translation: (v) => (v.kind === 'first' ? a.translation(v.value)
            : (v.second === null ? null : b.translation(v.second)) ?? a.translation(v.first)),
        };
      }
      if (spec.kind === 'simultaneously') {
        return {
          recognizer: new SimultaneousRecognizer(a.recognizer, b.recognizer),
          encode: (v) => new Line([['first', v.first === null ? null : a.encode(v.first)], ['second', v.second === null ? null : b.encode(v.second)]]),
          translation: (v) => (v.first === null ? null : a.translation(v.first)) ?? (v.second === null ? null : b.translation(v.second)),
        };
      }
      return {
        recognizer: new ExclusiveRecognizer(a.recognizer, b.recognizer),
        encode: (v) => new Line([[v.kind, v.kind === 'first' ? a.encode(v.value) : b.encode(v.value)]]),
        translation: (v) => (v.kind === 'first' ? a.translation(v.value) : b.translation(v.value)),
      };
    }
  }
}

const touchOf = (event) => (['down', 'move', 'up', 'cancel'].includes(event.kind)
  ? { phase: event.kind, x: event.location.x, y: event.location.y, time: event.time } : null);

function replayGesture({ spec, view }, events) {
  const { recognizer, encode, translation } = build(spec);
  const tracker = new GestureTracker(recognizer);
  let offset = { width: 0, height: 0 };
  const lines = [];
  const report = (updates) => {
    for (const update of updates) {
      if (update.kind === 'failed') {
        lines.push(new Line([['t', update.time], ['cb', 'failed']]));
        continue;
      }
      lines.push(new Line([['t', update.time], ['cb', update.kind], ['value', encode(update.value)]]));
      const moved = update.kind === 'changed' ? translation(update.value) : null;
      if (moved !== null && moved !== undefined) offset = moved;
    }
  };
  for (const event of events) {
    // Deadlines first, so a value they deliver moves the view before the touch is measured against it.
    report(tracker.advance(event.time));
    const touch = touchOf(event);
    if (touch === null) continue;
    const frame = view?.frame ?? { x: 0, y: 0 };
    const origin = view?.offsetFollowsTranslation ? { x: frame.x + offset.width, y: frame.y + offset.height } : { x: frame.x, y: frame.y };
    report(tracker.receive(touch, origin));
  }
  return lines;
}

function readDeck(value) {
  const deck = new TraceObject(value, 'deck');
  deck.allow(['size', 'columns', 'pages', 'page', 'filled', 'arrange', 'protocol', 'slotsPerPage', 'spacing', 'scene']);
  const size = deck.pair('size');
  const slots = deck.int('slotsPerPage', DeckConstants.defaultSlotsPerPage, 1, DeckConstants.maximumSlotsPerPage);
  let grid;
  const columns = deck.int('columns', undefined, 1, slots);
  const spacing = deck.number('spacing', DeckGrid.defaultSpacing);
  try {
    grid = new DeckGrid({ size: { width: size.x, height: size.y }, columns, slotsPerPage: slots, spacing });
  } catch (error) {
    if (error instanceof DeckGeometryError) throw fail(`deck: ${error.message}`);
    throw error;
  }
  const pageCount = deck.int('pages', undefined, 1, DeckConstants.maximumPages);
  const page = deck.int('page', 0, 0, pageCount - 1);
  const arranging = deck.bool('arrange', false);
  const protocolLevel = deck.int('protocol', ArrangeSession.movingProtocolLevel, 0, 1_000_000);
  const printsScene = deck.bool('scene', false);
  const slotValues = deck.get('filled') === undefined ? [] : deck.get('filled');
  if (!Array.isArray(slotValues)) throw fail('deck.filled must be an array of [page, index] pairs');
  const filled = new Map();
  slotValues.forEach((slotValue, number) => {
    const [p, i] = TraceObject.numbers(slotValue, 2, `deck.filled[${number}]`);
    if (!(Number.isInteger(p) && Number.isInteger(i) && p >= 0 && p < pageCount && i >= 0 && i < slots)) {
      throw fail(`deck.filled[${number}] is not a slot of ${pageCount} pages of ${slots}: ${jsonText(slotValue)}`);
    }
    filled.set(`${p}/${i}`, { page: p === 0 ? 0 : p, index: i === 0 ? 0 : i });
  });
  return { grid, pageCount, page, filled: [...filled.values()], arranging, protocolLevel, printsScene };
}

function deckSession(setup) {
  try {
    return new ArrangeSession(setup);
  } catch (error) {
    if (error instanceof DeckGesturesError) throw fail(`deck: ${error.message}`);
    throw error;
  }
}

const appEvents = { done: 'done', lock: 'hostLocked', disconnect: 'disconnected', background: 'background', released: 'released' };

function replayDeck(setup, events) {
  const session = deckSession(setup);
  const lines = [];
  const slot = (s) => (s === null ? null : [s.page, s.index]);
  for (const event of events) {
    let input;
    if (event.kind === 'tick') input = { kind: 'tick', time: event.time };
    else if (appEvents[event.kind]) input = { kind: 'app', event: appEvents[event.kind], time: event.time };
    else input = { kind: 'touch', touch: touchOf(event) };
    for (const { time, action } of session.handle(input)) {
      const fields = [['t', time], ['cb', action.kind]];
      switch (action.kind) {
        case 'hold': fields.push(['slot', slot(action.slot)], ['hint', action.hint.placement.edge], ['canMove', action.hint.canMove]); break;
        case 'page': fields.push(['page', action.page]); break;
        case 'move': fields.push(['from', slot(action.from)], ['to', slot(action.to)]); break;
        case 'arrange': fields.push(['on', action.on]); break;
        default: fields.push(['slot', slot(action.slot)]);
      }
      lines.push(new Line(fields));
    }
    if (setup.printsScene) lines.push(sceneLine(session, event.time));
  }
  return lines;
}

/** `{"t", "cb": "scene", …}`: what the session says to draw after an event (`"scene": true`). */
function sceneLine(session, time) {
  const scene = session.scene;
  const slot = (s) => (s === null ? null : [s.page, s.index]);
  const hint = scene.hint === null ? null : new Line([
    ['edge', scene.hint.placement.edge],
    ['frame', [scene.hint.placement.frame.x, scene.hint.placement.frame.y, scene.hint.placement.frame.width, scene.hint.placement.frame.height]],
    ['tailX', scene.hint.placement.tailX], ['canMove', scene.hint.canMove]]);
  const lifted = scene.lifted === null ? null
    : new Line([['slot', slot(scene.lifted.source)], ['center', [scene.lifted.center.x, scene.lifted.center.y]], ['scale', scene.lifted.scale]]);
  const wiggling = [...scene.filled].map((key) => key.split('/').map(Number)).map(([page, index]) => ({ page, index }))
    .sort((a, b) => a.page - b.page || a.index - b.index).filter((s) => scene.wiggles(s)).map(slot);
  return new Line([['t', time], ['cb', 'scene'], ['page', scene.page], ['pages', scene.pageCount], ['stripOffset', scene.stripOffset],
    ['following', scene.stripFollowsFinger], ['arranging', scene.arranging], ['held', slot(scene.held)], ['hint', hint],
    ['lifted', lifted], ['target', slot(scene.target)], ['wiggling', wiggling], ['deadline', session.deadline]]);
}

function readPager(value) {
  const object = new TraceObject(value, 'pager');
  object.allow(['axis', 'size', 'count', 'index', 'flip', 'gap', 'minimumDistance']);
  const axis = object.string('axis');
  if (axis !== 'horizontal' && axis !== 'vertical') throw fail('pager.axis must be "horizontal" or "vertical"');
  const size = object.pair('size');
  const length = axis === 'horizontal' ? size.x : size.y;
  if (!(length > 0)) throw fail('pager.size must be positive along the axis');
  const count = object.int('count', undefined, 1, 100_000);
  const index = object.int('index', 0, 0, count - 1);
  if (object.get('flip') === undefined) throw fail("pager needs 'flip'");
  const flip = new TraceObject(object.get('flip'), 'pager.flip');
  let rule;
  const keys = flip.keys.join(',');
  if (keys === 'translation') rule = { kind: 'translation', fraction: flip.number('translation') };
  else if (keys === 'predictedEnd') rule = { kind: 'predictedEnd', fraction: flip.number('predictedEnd') };
  else throw fail('pager.flip must be {"translation": fraction} or {"predictedEnd": fraction}');
  const gap = object.number('gap', 0);
  return { axis, pageLength: length, gap, pageCount: count, page: index, rule, minimumDistance: object.number('minimumDistance', 10) };
}

function replayPager(setup, events) {
  const session = new PagerSession({ pager: new SwipePager(setup), minimumDistance: setup.minimumDistance });
  const lines = [];
  for (const event of events) {
    const touch = touchOf(event);
    if (touch === null) continue;
    for (const { time, output } of session.handle(touch)) {
      lines.push(new Line([['t', time], ['cb', output.kind], output.kind === 'page' ? ['page', output.page] : ['offset', output.offset]]));
    }
  }
  return lines;
}

/** Runs a trace's events; returns its callbacks as output lines ({t, cb, …}). */
export function replayTrace(trace) {
  switch (trace.subject.kind) {
    case 'gesture': return replayGesture(trace.subject, trace.events);
    case 'deck': return replayDeck(trace.subject.setup, trace.events);
    default: return replayPager(trace.subject.setup, trace.events);
  }
}
