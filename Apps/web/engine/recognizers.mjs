// The primitives of GESTURES.md §1 as state machines: a port of
// Modules/DeckGestures (GestureInput, DragValue, TapRecognizer,
// LongPressRecognizer, DragRecognizer). Inputs go in, the callbacks they
// cause come out; GestureTracker drives them from raw touches.
//
// An input: {time, kind, point?, viewOrigin}, kind one of
//   'down' | 'move' | 'up' | 'downUp' | 'cancel' | 'clock'
// ('downUp': the first touch this recognizer sees is already the lift — the
// second part of a sequence when the finger lifts right after the first part).
// An update: {time, kind: 'changed' | 'ended' | 'failed', value?}.
// Every recognizer has `deadline` (number|null), `isFinished`, `receive(input)`
// → updates, and `reset()` (back to before any touch, as a pristine copy of a
// Swift value is).
import { LengthThreshold, VirtualTime, distance } from './time.mjs';

/** Coordinate spaces of a drag: touches arrive in global coordinates. */
export const CoordinateSpace = Object.freeze({
  /** The screen: touches as they arrive. */
  global: Object.freeze({ kind: 'global' }),
  /**
   * A named space whose origin sits at `origin` (global coordinates), such as the deck's grid.
   * @param {{x:number,y:number}} origin
   */
  named(origin) { return Object.freeze({ kind: 'named', origin: { x: origin.x, y: origin.y } }); },
  /**
   * The gesture's own view, as its frame is at each event. Trap: a view whose
   * offset follows the drag moves its own origin under the finger, so the
   * translation it reports is halved and jitters (seed 003's feedback loop).
   */
  local: Object.freeze({ kind: 'local' }),
});

/** `point` (global) expressed in `space`. */
export function convert(space, point, viewOrigin) {
  switch (space.kind) {
    case 'named': return { x: point.x - space.origin.x, y: point.y - space.origin.y };
    case 'local': return { x: point.x - viewOrigin.x, y: point.y - viewOrigin.y };
    default: return { x: point.x, y: point.y };
  }
}

/** Whether an input starts a new touch for a recognizer that is finished. */
export function startsTouch(input) {
  return input.kind === 'down' || input.kind === 'downUp';
}

/** The same instant and view with another kind (and point). */
export function withKind(input, kind, point) {
  return { time: input.time, kind, point, viewOrigin: input.viewOrigin };
}

/**
 * Structural equality of gesture values (what SwiftUI's `Equatable` values
 * compare): numbers by `===` (so 0 equals -0), objects field by field.
 * @param {unknown} a @param {unknown} b @returns {boolean}
 */
export function valuesEqual(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && valuesEqual(a[key], b[key]));
}

/** How far ahead a drag's predictions look by default, in seconds. */
export const defaultProjection = 0.25;

/**
 * A drag's value, as SwiftUI's `DragGesture.Value`. `time` is part of its
 * equality, so two samples at one place are still two changes.
 */
export class DragValue {
  /** @param {{time:number, location:{x:number,y:number}, startLocation:{x:number,y:number}, velocity?:{width:number,height:number}, projection?:number}} fields */
  constructor({ time, location, startLocation, velocity = { width: 0, height: 0 }, projection = defaultProjection }) {
    this.time = time;
    this.location = { x: location.x, y: location.y };
    this.startLocation = { x: startLocation.x, y: startLocation.y };
    this.velocity = { width: velocity.width, height: velocity.height };
    this.projection = projection;
  }

  /** `location − startLocation`. */
  get translation() {
    return { width: this.location.x - this.startLocation.x, height: this.location.y - this.startLocation.y };
  }

  /** Where the finger would come to rest if it kept its velocity for `projection` seconds. */
  get predictedEndLocation() {
    return { x: this.location.x + this.velocity.width * this.projection, y: this.location.y + this.velocity.height * this.projection };
  }

  /** `predictedEndLocation − startLocation`: what a flick is judged by. */
  get predictedEndTranslation() {
    const end = this.predictedEndLocation;
    return { width: end.x - this.startLocation.x, height: end.y - this.startLocation.y };
  }

  /** A copy (values are never shared between updates). */
  copy() { return new DragValue(this); }
}

const changed = (value, time) => ({ time, kind: 'changed', value });
const ended = (value, time) => ({ time, kind: 'ended', value });
const failed = (time) => ({ time, kind: 'failed' });

/** The tap's value: it carries none (null in a trace). */
export const TapValue = Object.freeze({ tap: true });

/**
 * SwiftUI's `TapGesture`: ends at the lift of the `count`-th touch when every
 * touch stayed within `slop` points and lasted at most `maximumDuration`.
 */
export class TapRecognizer {
  /** How far a touch may wander, in points, before it is no tap. */
  static slop = 45;
  /** How long a touch may stay down and still be a tap, in seconds. */
  static maximumDuration = 0.75;
  /** For a multiple tap: the longest wait from one lift to the next touch, in seconds. */
  static maximumGap = 0.35;

  /** @param {{count?:number}} [options] */
  constructor({ count = 1 } = {}) {
    /** Taps needed (2 for a double tap). */
    this.count = Math.max(1, count);
    this.reset();
  }

  /** Back to before any touch. */
  reset() {
    /** @type {{kind:'idle'|'ended'|'failed'} | {kind:'touching', first, start, done:number, until:number} | {kind:'waiting', first, done:number, until:number}} */
    this.state = { kind: 'idle' };
  }

  /** When the current touch, or the wait for the next one, runs out. */
  get deadline() {
    return this.state.kind === 'touching' || this.state.kind === 'waiting' ? this.state.until : null;
  }

  /** True once it ended or failed. */
  get isFinished() { return this.state.kind === 'ended' || this.state.kind === 'failed'; }

  /** Feeds one input. */
  receive(input) {
    const t = input.time;
    const s = this.state;
    const k = input.kind;
    if (s.kind === 'touching' && (k === 'down' || k === 'downUp')) return [];
    if (s.kind === 'waiting' && k === 'down') {
      if (LengthThreshold.exceeds(distance(input.point, s.first), TapRecognizer.slop)) return this.fail(t);
      this.state = { kind: 'touching', first: s.first, start: input.point, done: s.done, until: t + TapRecognizer.maximumDuration };
      return [];
    }
    if (s.kind === 'waiting' && k === 'downUp') {
      if (LengthThreshold.exceeds(distance(input.point, s.first), TapRecognizer.slop)) return this.fail(t);
      return this.complete(s.first, s.done, t);
    }
    if (k === 'down') {
      this.state = { kind: 'touching', first: input.point, start: input.point, done: 0, until: t + TapRecognizer.maximumDuration };
      return [];
    }
    if (k === 'downUp') return this.complete(input.point, 0, t);
    if (s.kind === 'touching' && k === 'move') {
      return LengthThreshold.exceeds(distance(input.point, s.start), TapRecognizer.slop) ? this.fail(t) : [];
    }
    if (s.kind === 'touching' && k === 'up') {
      return LengthThreshold.exceeds(distance(input.point, s.start), TapRecognizer.slop)
        ? this.fail(t) : this.complete(s.first, s.done, t);
    }
    if ((s.kind === 'touching' || s.kind === 'waiting') && k === 'clock' && VirtualTime.isDue(s.until, t)) return this.fail(t);
    if ((s.kind === 'touching' || s.kind === 'waiting') && k === 'cancel') return this.fail(t);
    return [];
  }

  /** @private */
  complete(first, done, t) {
    if (done + 1 >= this.count) {
      this.state = { kind: 'ended' };
      return [ended(TapValue, t)];
    }
    this.state = { kind: 'waiting', first, done: done + 1, until: t + TapRecognizer.maximumGap };
    return [];
  }

  /** @private */
  fail(t) {
    this.state = { kind: 'failed' };
    return [failed(t)];
  }
}

/**
 * SwiftUI's `LongPressGesture`: `changed(true)` at touch-down, `ended(true)`
 * when the finger has stayed down and close for `minimumDuration`.
 * Trap: it ends with the finger still on the glass and does not report the
 * lift; to learn the real release, sequence it before a zero-distance drag.
 */
export class LongPressRecognizer {
  /** @param {{minimumDuration?:number, maximumDistance?:number}} [options] */
  constructor({ minimumDuration = 0.5, maximumDistance = 10 } = {}) {
    /** How long the finger must stay down, in seconds. */
    this.minimumDuration = minimumDuration;
    /** Moving this far from the touch-down (or further) first makes it fail. */
    this.maximumDistance = maximumDistance;
    this.reset();
  }

  /** Back to before any touch. */
  reset() {
    /** @type {{kind:'idle'|'ended'|'failed'} | {kind:'pressing', start, until:number}} */
    this.state = { kind: 'idle' };
  }

  /** The instant the press will succeed, while pressing. */
  get deadline() { return this.state.kind === 'pressing' ? this.state.until : null; }

  /** True once it ended or failed. */
  get isFinished() { return this.state.kind === 'ended' || this.state.kind === 'failed'; }

  /** Feeds one input. */
  receive(input) {
    const t = input.time;
    const s = this.state;
    const pressing = s.kind === 'pressing';
    if (input.kind === 'down' && !pressing) {
      this.state = { kind: 'pressing', start: input.point, until: t + this.minimumDuration };
      return [changed(true, t)];
    }
    if (input.kind === 'downUp' && !pressing) {
      // Touched and lifted at once: only a zero-length press can succeed.
      const zero = this.minimumDuration <= 0;
      this.state = { kind: zero ? 'ended' : 'failed' };
      return [zero ? ended(true, t) : failed(t)];
    }
    if (pressing && input.kind === 'move') {
      if (!LengthThreshold.reaches(distance(input.point, s.start), this.maximumDistance)) return [];
      this.state = { kind: 'failed' };
      return [failed(t)];
    }
    if (pressing && (input.kind === 'up' || input.kind === 'cancel')) {
      this.state = { kind: 'failed' };
      return [failed(t)];
    }
    if (pressing && input.kind === 'clock' && VirtualTime.isDue(s.until, t)) {
      this.state = { kind: 'ended' };
      return [ended(true, t)];
    }
    return [];
  }
}

/**
 * SwiftUI's `DragGesture`: active once the finger is `minimumDistance` from
 * the touch-down (measured on the screen), then `changed` for every sample
 * and `ended` at the lift.
 */
export class DragRecognizer {
  /** How far ahead predictions look by default, in seconds. */
  static defaultProjection = defaultProjection;
  /**
   * How far back the velocity looks, in seconds. A window rather than the
   * last pair of samples: a lift reported at the same place a few
   * milliseconds after the last move would otherwise zero every flick's velocity.
   */
  static velocityWindow = 0.1;

  /** @param {{minimumDistance?:number, coordinateSpace?:object, projection?:number}} [options] SwiftUI's defaults: 10 points, local. */
  constructor({ minimumDistance = 10, coordinateSpace = CoordinateSpace.local, projection = defaultProjection } = {}) {
    this.minimumDistance = minimumDistance;
    this.coordinateSpace = coordinateSpace;
    this.projection = projection;
    this.reset();
  }

  /** Back to before any touch. */
  reset() {
    /** @type {{kind:'idle'|'ended'|'failed'} | {kind:'tracking', screenStart, value:DragValue, active:boolean, history:{location,time}[]}} */
    this.state = { kind: 'idle' };
  }

  /** A drag never needs the clock. */
  get deadline() { return null; }

  /** True once it ended or failed. */
  get isFinished() { return this.state.kind === 'ended' || this.state.kind === 'failed'; }

  /** Feeds one input. */
  receive(input) {
    const t = input.time;
    const s = this.state;
    const tracking = s.kind === 'tracking';
    switch (input.kind) {
      case 'down': {
        if (tracking) return [];
        const track = this.begin(input.point, input);
        this.state = track;
        return track.active ? [changed(track.value.copy(), t)] : [];
      }
      case 'downUp': {
        if (tracking) return [];
        // The lift is the first touch seen: a zero-distance drag ends from it
        // at once, with no `changed` first; any other drag was never active.
        const track = this.begin(input.point, input);
        this.state = { kind: track.active ? 'ended' : 'failed' };
        return [track.active ? ended(track.value.copy(), t) : failed(t)];
      }
      case 'move':
        if (!tracking) return [];
        this.sample(s, input.point, input);
        if (!s.active && LengthThreshold.reaches(distance(input.point, s.screenStart), this.minimumDistance)) s.active = true;
        return s.active ? [changed(s.value.copy(), t)] : [];
      case 'up':
        if (!tracking) return [];
        this.sample(s, input.point, input);
        this.state = { kind: s.active ? 'ended' : 'failed' };
        return [s.active ? ended(s.value.copy(), t) : failed(t)];
      case 'cancel':
        if (!tracking) return [];
        this.state = { kind: 'failed' };
        return [failed(t)];
      default:
        return [];
    }
  }

  /** @private */
  begin(point, input) {
    const location = convert(this.coordinateSpace, point, input.viewOrigin);
    const value = new DragValue({ time: input.time, location, startLocation: location, projection: this.projection });
    return { kind: 'tracking', screenStart: point, value, active: this.minimumDistance <= 0, history: [] };
  }

  /**
   * Takes a new sample. The velocity is the displacement from the oldest
   * earlier sample at most `velocityWindow` old (or, when none is, the sample
   * just before) to this one; it stays as it was when that spans no time.
   * @private
   */
  sample(track, point, input) {
    const location = convert(this.coordinateSpace, point, input.viewOrigin);
    track.history.push({ location: track.value.location, time: track.value.time });
    const firstRecent = track.history.findIndex((s) => VirtualTime.lasts(s.time, input.time, DragRecognizer.velocityWindow));
    track.history = firstRecent < 0 ? track.history.slice(-1) : track.history.slice(firstRecent);
    const reference = track.history[0];
    if (reference && input.time > reference.time) {
      const elapsed = input.time - reference.time;
      track.value.velocity = {
        width: (location.x - reference.location.x) / elapsed,
        height: (location.y - reference.location.y) / elapsed,
      };
    }
    track.value.time = input.time;
    track.value.location = location;
  }
}
