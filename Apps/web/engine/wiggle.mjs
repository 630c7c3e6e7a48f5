// The arrange-mode wiggle: a port of Modules/DeckGeometry/Wiggle.swift.
// Computed from the time rather than run as a repeating animation, so it
// stops dead the moment arrange mode ends.

/** The wiggle's numbers and angle. */
export const Wiggle = Object.freeze({
  /** The largest tilt either way, in degrees. */
  amplitude: 1.5,
  /** One full back-and-forth, in seconds. */
  period: 0.25,
  /**
   * The slot's phase as a fraction of a period, in [0, 1): different for every
   * slot (multiples of an irrational number never repeat), so the page does
   * not tilt as one block.
   * @param {number} slot @returns {number}
   */
  phaseOfSlot(slot) {
    const fraction = (slot * 0.618_033_988_749_895) % 1;
    return fraction < 0 ? fraction + 1 : fraction;
  },
  /**
   * The tilt in degrees of the tile in `slot` at `time`; zero with reduce motion.
   * @param {number} time @param {number} slot @param {boolean} reduceMotion @returns {number}
   */
  angle(time, slot, reduceMotion) {
    if (reduceMotion) return 0;
    return Wiggle.amplitude * Math.sin((time / Wiggle.period + Wiggle.phaseOfSlot(slot)) * 2 * Math.PI);
  },
});
