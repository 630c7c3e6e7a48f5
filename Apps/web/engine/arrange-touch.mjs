// The gesture of one touch of the arrange session: a port of ArrangeTouch.swift.
//
// On a filled slot it is built from the primitives the way a SwiftUI tile
// would be: the long press sequenced before a zero-distance drag (the only
// way to learn the real release after a hold) has precedence over the page
// swipe, which has precedence over the tap. The swipe's 15 points exceed the
// press's 10, so a swipe only wins once the hold has failed.
import { CoordinateSpace, DragRecognizer, LongPressRecognizer, TapRecognizer } from './recognizers.mjs';
import { ExclusiveRecognizer, SequenceRecognizer } from './combinators.mjs';
import { GestureTracker } from './tracker.mjs';

/** Points a hold may move before it fails, and the swipe's start (ArrangeSession's constants). */
export const TouchNumbers = Object.freeze({ holdSlop: 10, swipeDistance: 15 });

/**
 * The gesture for a touch that began on a button, holding for `holdDuration`.
 * @param {number} holdDuration
 */
export function buttonGesture(holdDuration) {
  // Trap: locations are in the grid's own space, which does not move with the
  // drag, so translations are true; the moving tile's `local` space would
  // halve them and jitter (seed 003's feedback loop).
  const grid = CoordinateSpace.named({ x: 0, y: 0 });
  const pressDrag = new SequenceRecognizer(
    new LongPressRecognizer({ minimumDuration: holdDuration, maximumDistance: TouchNumbers.holdSlop }),
    new DragRecognizer({ minimumDistance: 0, coordinateSpace: grid }));
  const swipe = new DragRecognizer({ minimumDistance: TouchNumbers.swipeDistance, coordinateSpace: grid });
  return { kind: 'button', tracker: new GestureTracker(new ExclusiveRecognizer(pressDrag, new ExclusiveRecognizer(swipe, new TapRecognizer()))) };
}

/** The gesture for a touch anywhere else (an empty slot, a gap, outside): page swipes only. */
export function swipeOnlyGesture() {
  const drag = new DragRecognizer({ minimumDistance: TouchNumbers.swipeDistance, coordinateSpace: CoordinateSpace.named({ x: 0, y: 0 }) });
  return { kind: 'swipe', tracker: new GestureTracker(drag) };
}

/**
 * What a touch's gesture means for the session: {time, signal}, signal one of
 * {kind:'held'}, {kind:'heldDrag', drag}, {kind:'heldRelease', drag|null},
 * {kind:'swipe', drag}, {kind:'swipeEnded', drag}, {kind:'tap'}, {kind:'failed'}.
 */
export function signals(gesture, updates) {
  const out = [];
  for (const update of updates) {
    const signal = gesture.kind === 'button' ? buttonSignal(update) : swipeSignal(update);
    if (signal !== null) out.push({ time: update.time, signal });
  }
  return out;
}

function buttonSignal(update) {
  if (update.kind === 'failed') return { kind: 'failed' };
  const outer = update.value;
  const inner = outer.value;
  if (outer.kind === 'first') {
    // The hold sequence: {kind:'first'} while pressing, {kind:'second', first, second: drag|null} after.
    if (update.kind === 'changed') {
      if (inner.kind === 'first') return null;
      return inner.second === null ? { kind: 'held' } : { kind: 'heldDrag', drag: inner.second };
    }
    return { kind: 'heldRelease', drag: inner.kind === 'second' ? inner.second : null };
  }
  // The swipe (inner first) or the tap (inner second).
  if (inner.kind === 'first') return update.kind === 'changed' ? { kind: 'swipe', drag: inner.value } : { kind: 'swipeEnded', drag: inner.value };
  return update.kind === 'changed' ? null : { kind: 'tap' };
}

function swipeSignal(update) {
  if (update.kind === 'changed') return { kind: 'swipe', drag: update.value };
  if (update.kind === 'ended') return { kind: 'swipeEnded', drag: update.value };
  return { kind: 'failed' };
}
