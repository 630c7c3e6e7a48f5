// SwiftUI's gesture combinators (GESTURES.md §1): a port of
// SequenceRecognizer, SimultaneousRecognizer and ExclusiveRecognizer.
//
// Values: a sequence's is {kind:'first', value:a} or {kind:'second', first:a,
// second:b|null}; a simultaneous one's {first:a|null, second:b|null}; an
// exclusive one's {kind:'first', value:a} or {kind:'second', value:b}.
import { startsTouch, withKind } from './recognizers.mjs';

const mapUpdate = (update, transform) => (update.kind === 'failed'
  ? { time: update.time, kind: 'failed' }
  : { time: update.time, kind: update.kind, value: transform(update.value) });

/**
 * The two children of a combinator (GestureChildren): `reset` puts both back
 * to before any touch, as Swift's pristine copies do, then the combinator's
 * own state (`clear`).
 */
class Combinator {
  /** @param {object} first @param {object} second */
  constructor(first, second) {
    this.first = first;
    this.second = second;
    this.clear();
  }

  /** The combinator's own state before any touch. @abstract */
  clear() {}

  /** Back to before any touch. */
  reset() {
    this.first.reset();
    this.second.reset();
    this.clear();
  }
}

/** The earliest deadline among the children still running. */
function earliest(...deadlines) {
  const live = deadlines.filter((d) => d !== null && d !== undefined);
  return live.length === 0 ? null : Math.min(...live);
}

/**
 * `first`, then `second` on the touches that come after `first` ended. The
 * second part's start is the first touch it sees; when the finger lifts right
 * after the first part ended, that touch is the lift and a zero-distance drag
 * ends from it at once — the one reliable way to learn the real release of a
 * held finger (the hold decided at release).
 */
export class SequenceRecognizer extends Combinator {
  /** @private */
  clear() {
    this.stage = { kind: 'first' };
  }

  /** The running part's deadline. */
  get deadline() {
    if (this.stage.kind === 'first') return this.first.deadline;
    if (this.stage.kind === 'second') return this.second.deadline;
    return null;
  }

  /** True once it ended or failed. */
  get isFinished() { return this.stage.kind === 'ended' || this.stage.kind === 'failed'; }

  /** Feeds one input. */
  receive(input) {
    if (this.isFinished && startsTouch(input)) this.reset();
    const stage = this.stage;
    switch (stage.kind) {
      case 'first': {
        const out = [];
        for (const update of this.first.receive(input)) out.push(...this.reportFirst(update));
        return out;
      }
      case 'waiting': {
        // The first touch after the first part ended is the second part's
        // start: a move becomes its touch-down, a lift its touch-down and lift at once.
        let start;
        switch (input.kind) {
          case 'down': case 'move': start = 'down'; break;
          case 'up': case 'downUp': start = 'downUp'; break;
          case 'cancel':
            // The second part has not begun, but the sequence is live.
            this.stage = { kind: 'failed' };
            return [{ time: input.time, kind: 'failed' }];
          default: return [];
        }
        this.stage = { kind: 'second', a: stage.a };
        return this.reportSecond(this.second.receive(withKind(input, start, input.point)), stage.a);
      }
      case 'second':
        return this.reportSecond(this.second.receive(input), stage.a);
      default:
        return [];
    }
  }

  /** @private */
  reportFirst(update) {
    switch (update.kind) {
      case 'changed':
        return [{ time: update.time, kind: 'changed', value: { kind: 'first', value: update.value } }];
      case 'ended':
        this.stage = { kind: 'waiting', a: update.value };
        return [{ time: update.time, kind: 'changed', value: { kind: 'second', first: update.value, second: null } }];
      default:
        this.stage = { kind: 'failed' };
        return [{ time: update.time, kind: 'failed' }];
    }
  }

  /** @private */
  reportSecond(updates, a) {
    for (const update of updates) {
      if (update.kind === 'ended') this.stage = { kind: 'ended' };
      if (update.kind === 'failed') this.stage = { kind: 'failed' };
    }
    return updates.map((update) => mapUpdate(update, (b) => ({ kind: 'second', first: a, second: b })));
  }
}

/**
 * Both gestures on the same touches: changes whenever either reports, ends
 * once both are finished and at least one ended, fails when both failed. A
 * child that ended keeps its last value; a failed child's is null.
 */
export class SimultaneousRecognizer extends Combinator {
  /** @private */
  clear() {
    this.outcomes = { first: null, second: null };
    this.value = { first: null, second: null };
    this.finished = false;
  }

  /** The earlier deadline of the children still running. */
  get deadline() {
    return earliest(this.outcomes.first === null ? this.first.deadline : null,
      this.outcomes.second === null ? this.second.deadline : null);
  }

  /** True once both children finished. */
  get isFinished() { return this.finished; }

  /** Feeds one input to both children, the first one first. */
  receive(input) {
    if (this.finished) {
      if (!startsTouch(input)) return [];
      this.reset();
    }
    let moved = false;
    for (const side of ['first', 'second']) {
      if (this.outcomes[side] !== null) continue;
      for (const update of this[side].receive(input)) {
        this.value = { ...this.value, [side]: update.kind === 'failed' ? null : update.value };
        this.outcomes[side] = update.kind === 'changed' ? null : update.kind;
        moved = moved || update.kind !== 'failed';
      }
    }
    const { first: a, second: b } = this.outcomes;
    if (a !== null && b !== null) {
      this.finished = true;
      return [a === 'ended' || b === 'ended'
        ? { time: input.time, kind: 'ended', value: this.value }
        : { time: input.time, kind: 'failed' }];
    }
    // A child's failure alone is no change worth reporting: its value turns
    // null in the next report.
    return moved ? [{ time: input.time, kind: 'changed', value: this.value }] : [];
  }
}

/**
 * `first` with precedence over `second`: both see every touch, but while
 * `first` has not failed only its callbacks are reported and an end of
 * `second` is held back; once `first` fails, `second`'s are, starting with a
 * held-back end.
 */
export class ExclusiveRecognizer extends Combinator {
  /** @private */
  clear() {
    this.firstFailed = false;
    /** How the second child finished while the first still had precedence. */
    this.secondHeld = null;
    this.finished = false;
  }

  /** The earlier deadline of the children still running. */
  get deadline() {
    if (this.finished) return null;
    return earliest(!this.firstFailed ? this.first.deadline : null, this.secondHeld === null ? this.second.deadline : null);
  }

  /** True once it ended or failed. */
  get isFinished() { return this.finished; }

  /** Feeds one input to both children, the first one first. */
  receive(input) {
    if (this.finished) {
      if (!startsTouch(input)) return [];
      this.reset();
    }
    const out = [];
    if (!this.firstFailed) {
      for (const update of this.first.receive(input)) out.push(...this.reportFirst(update));
    }
    if (!this.finished && this.secondHeld === null) {
      for (const update of this.second.receive(input)) out.push(...this.reportSecond(update));
    }
    return out;
  }

  /** @private */
  reportFirst(update) {
    switch (update.kind) {
      case 'changed':
        return [{ time: update.time, kind: 'changed', value: { kind: 'first', value: update.value } }];
      case 'ended':
        this.finished = true;
        return [{ time: update.time, kind: 'ended', value: { kind: 'first', value: update.value } }];
      default: {
        this.firstFailed = true;
        // The second's end, held back until now, is reported at this instant.
        if (this.secondHeld === null) return [];
        return this.finish({ ...this.secondHeld, time: update.time });
      }
    }
  }

  /** @private */
  reportSecond(update) {
    const final = update.kind !== 'changed';
    if (final && !this.firstFailed) {
      this.secondHeld = update;
      return [];
    }
    if (!this.firstFailed) return [];
    return final ? this.finish(update) : [mapUpdate(update, (b) => ({ kind: 'second', value: b }))];
  }

  /** @private */
  finish(update) {
    this.finished = true;
    return [mapUpdate(update, (b) => ({ kind: 'second', value: b }))];
  }
}
