// Drives one recognizer from raw touches and a virtual clock — the part of a
// UI framework a headless engine does itself: a port of GestureTracker.swift.
import { VirtualTime } from './time.mjs';
import { valuesEqual } from './recognizers.mjs';

/**
 * - Deadlines fire at their own instant: before a touch at time t, every
 *   deadline at or before t fires first, each stamped with its own time;
 *   deadlines a touch creates that are already due fire right after it.
 * - Fingers are counted: a second finger fails every live gesture (like a
 *   cancel), and the rest of that multi-finger touch is ignored.
 * - `changed` is not repeated when the value equals the one last delivered.
 *
 * A touch: {phase: 'down'|'move'|'up'|'cancel', x, y, time}.
 */
export class GestureTracker {
  /** @param {object} recognizer */
  constructor(recognizer) {
    this.recognizer = recognizer;
    /** The latest instant seen. */
    this.now = -Infinity;
    this.fingers = 0;
    /** A second finger came; ignore touches until every finger lifted. */
    this.spoiled = false;
    this.lastChanged = undefined;
    this.viewOrigin = { x: 0, y: 0 };
  }

  /** The recognizer's next deadline: a caller with a clock wakes it then with `advance`. */
  get deadline() { return this.recognizer.deadline; }

  /** Whether a finger is on the glass. */
  get isTouching() { return this.fingers > 0; }

  /**
   * Feeds one touch. `viewOrigin` is where the gesture's view is at this
   * instant, for `local` spaces. A time earlier than the last one seen is
   * taken as the last one.
   * @param {{phase:string, x?:number, y?:number, time:number}} touch
   * @param {{x:number,y:number}} [viewOrigin]
   */
  receive(touch, viewOrigin) {
    if (viewOrigin) this.viewOrigin = { x: viewOrigin.x, y: viewOrigin.y };
    const time = Math.max(touch.time, this.now);
    const out = this.advance(time);
    const kind = this.inputKind(touch);
    if (kind !== null) {
      out.push(...this.deliver({ time, kind, point: { x: touch.x ?? 0, y: touch.y ?? 0 }, viewOrigin: this.viewOrigin }));
    }
    out.push(...this.advance(time));
    return out;
  }

  /** Moves the clock to `time`, firing every deadline up to it in order, each at its own instant. */
  advance(time) {
    const out = [];
    for (let due = this.recognizer.deadline; due !== null && VirtualTime.isDue(due, time); due = this.recognizer.deadline) {
      const at = Math.max(due, this.now);
      out.push(...this.deliver({ time: at, kind: 'clock', point: { x: 0, y: 0 }, viewOrigin: this.viewOrigin }));
      // A recognizer that kept the same deadline after it fired would spin
      // here forever; stop rather than hang.
      if (this.recognizer.deadline === due) break;
    }
    this.now = Math.max(this.now, time);
    return out;
  }

  /** @private The input a touch means for the recognizer, counting fingers. */
  inputKind(touch) {
    switch (touch.phase) {
      case 'down':
        this.fingers += 1;
        if (this.fingers === 1) {
          this.spoiled = false;
          return 'down';
        }
        this.spoiled = true;
        return 'cancel';
      case 'move':
        return this.fingers === 1 && !this.spoiled ? 'move' : null;
      case 'up':
        if (this.fingers <= 0) return null;
        this.fingers -= 1;
        return this.fingers === 0 && !this.spoiled ? 'up' : null;
      case 'cancel':
        this.fingers = 0;
        this.spoiled = false;
        return 'cancel';
      default:
        throw new TypeError(`a touch's phase is down, move, up or cancel, not ${JSON.stringify(touch.phase)}`);
    }
  }

  /** @private */
  deliver(input) {
    this.now = Math.max(this.now, input.time);
    const out = [];
    for (const update of this.recognizer.receive(input)) {
      if (update.kind === 'changed') {
        if (this.lastChanged !== undefined && valuesEqual(update.value, this.lastChanged)) continue;
        this.lastChanged = update.value;
      } else {
        this.lastChanged = undefined;
      }
      out.push(update);
    }
    return out;
  }
}
