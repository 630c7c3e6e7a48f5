// Compares a trace's callbacks with its `expect` (GESTURES.md §3): a port of
// Modules/DeckGestureTraces/TraceMatcher.swift, with its sentences.
import { jsonText, formatNumber, isObject, traceEqual } from './json.mjs';

/** Tolerance on callback times, in seconds. */
export const timeTolerance = 0.001;
/** Tolerance on every other number. */
export const numberTolerance = 0.01;

const list = (items) => items.map(jsonText).join(', ');

/** Null when `actual` matches `expected`, else a one-line reason. */
export function mismatch(expected, actual) {
  const wantedGroups = instants(expected);
  const gotGroups = instants(actual);
  for (let index = 0; index < wantedGroups.length; index += 1) {
    const wanted = wantedGroups[index];
    if (index >= gotGroups.length) return `missing from t=${formatNumber(wanted.time)} on: expected ${list(wanted.items)}`;
    const got = gotGroups[index];
    if (!(Math.abs(got.time - wanted.time) <= timeTolerance)) {
      return `at t=${formatNumber(wanted.time)} expected ${list(wanted.items)}; the next callbacks came at t=${formatNumber(got.time)}: ${list(got.items)}`;
    }
    if (!(wanted.items.length === got.items.length && pairs(wanted.items, got.items))) {
      return `at t=${formatNumber(wanted.time)} expected ${list(wanted.items)}; got ${list(got.items)}`;
    }
  }
  if (gotGroups.length > wantedGroups.length) {
    const extra = gotGroups[wantedGroups.length];
    return `unexpected callbacks at t=${formatNumber(extra.time)}: ${list(extra.items)}`;
  }
  return null;
}

/** Whether `actual` has every field of `expected` with an equal value. */
export function matches(expected, actual) {
  if (typeof expected === 'number' && typeof actual === 'number') return Math.abs(expected - actual) <= numberTolerance;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return expected.length === actual.length && expected.every((item, i) => matches(item, actual[i]));
  }
  if (isObject(expected) && isObject(actual)) {
    return expected.fields.every(([key, value]) => {
      const other = actual.get(key);
      if (other === undefined) return false;
      return key === 't' ? timesMatch(value, other) : matches(value, other);
    });
  }
  return traceEqual(expected, actual);
}

function timesMatch(a, b) {
  return typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= timeTolerance;
}

/** Callbacks grouped by instant, in order. */
function instants(callbacks) {
  const groups = [];
  for (const callback of callbacks) {
    const t = isObject(callback) ? callback.get('t') : undefined;
    const time = typeof t === 'number' ? t : NaN;
    const last = groups.at(-1);
    if (last && Math.abs(last.time - time) <= timeTolerance) last.items.push(callback);
    else groups.push({ time, items: [callback] });
  }
  return groups;
}

/** Whether every expected callback of one instant pairs with a different actual one (any order within the instant). */
function pairs(expected, actual) {
  if (expected.length === 0) return actual.length === 0;
  const [first, ...rest] = expected;
  for (let i = 0; i < actual.length; i += 1) {
    if (!matches(first, actual[i])) continue;
    if (pairs(rest, actual.filter((_, j) => j !== i))) return true;
  }
  return false;
}
