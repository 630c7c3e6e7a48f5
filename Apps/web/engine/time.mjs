// Instants and lengths compared as GESTURES.md means them: a port of
// Modules/DeckGeometry/VirtualTime.swift and LengthThreshold.swift.

/**
 * Instants of the virtual clock: a deadline at or before an event's time
 * fires before that event.
 *
 * Trap: times are sums of decimal seconds, which binary floating point rounds
 * (0.12 + 0.45 is 0.5700000000000001): compared bare, a hold begun at 0.12
 * would be due after a lift at 0.57 and the button would run instead of
 * opening its settings. Instants closer than `tolerance` are one instant.
 */
export const VirtualTime = Object.freeze({
  /** Two instants closer than this are the same one, in seconds. */
  tolerance: 1e-9,
  /**
   * Whether `deadline` has come at `now` (it is at or before it).
   * @param {number} deadline @param {number} now @returns {boolean}
   */
  isDue(deadline, now) {
    return deadline <= now + VirtualTime.tolerance;
  },
  /**
   * Whether the span from `start` to `end` lasts at most `length`.
   * @param {number} start @param {number} end @param {number} length @returns {boolean}
   */
  lasts(start, end, length) {
    return end - start <= length + VirtualTime.tolerance;
  },
});

/**
 * Lengths compared with the contract's thresholds (the hold's 10 points, the
 * swipe's 15, the tap's 45, a third of the page).
 *
 * Trap: touches in decimal points subtract with rounding (64.1 - 54.1 is
 * 9.999999999999993), so a finger that moved exactly 10 points must not
 * count as 9.99. Lengths closer than `tolerance` are one length.
 */
export const LengthThreshold = Object.freeze({
  /** Two lengths closer than this are the same one, in points. */
  tolerance: 1e-9,
  /**
   * Whether `length` is at least `threshold` ("moves 10 points", "≥ 15").
   * @param {number} length @param {number} threshold @returns {boolean}
   */
  reaches(length, threshold) {
    return length >= threshold - LengthThreshold.tolerance;
  },
  /**
   * Whether `length` is beyond `limit` ("further than 45 points", "beyond width/3").
   * @param {number} length @param {number} limit @returns {boolean}
   */
  exceeds(length, limit) {
    return length > limit + LengthThreshold.tolerance;
  },
});

/**
 * The straight-line distance between two points.
 * @param {{x:number,y:number}} a @param {{x:number,y:number}} b @returns {number}
 */
export function distance(a, b) {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
