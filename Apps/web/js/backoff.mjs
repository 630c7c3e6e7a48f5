// When to try the WebSocket again after a drop: pure, so node tests it.

/** The first retry comes this soon (s): a host restarting is back within it. */
export const FIRST_RETRY = 0.5;
/** Retries never wait longer than this (s): a phone on the desk finds the host again soon. */
export const LONGEST_RETRY = 10;

/**
 * The wait before retry number `attempt` (0 for the first after a drop):
 * 0.5 s doubling to 10 s.
 * @param {number} attempt
 * @returns {number} seconds
 */
export function retryDelay(attempt) {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a whole number ≥ 0, not ${attempt}`);
  return Math.min(LONGEST_RETRY, FIRST_RETRY * 2 ** Math.min(attempt, 10));
}
