// Reading a trace's objects with the Swift tool's sentences: a port of
// Modules/DeckGestureTraces/TraceObject.swift and TraceError.swift.
import { JObject, jsonText, formatNumber } from './json.mjs';

/** A trace that cannot be used: `file` (when known) and the message naming the place in it. */
export class TraceError extends Error {
  /** @param {string|null} file @param {string} message */
  constructor(file, message) {
    super(message);
    this.file = file;
  }
  /** `FILE: message`. */
  get description() { return this.file === null ? this.message : `${this.file}: ${this.message}`; }
  /** The same error attributed to `file`. */
  in(file) { return new TraceError(file, this.message); }
}

/** @param {string} message */
export const fail = (message) => new TraceError(null, message);

/** A JSON object being read, with the path to it for errors (`gesture.sequenced[1].drag`). */
export class TraceObject {
  /** @param {unknown} value @param {string} path */
  constructor(value, path) {
    if (!(value instanceof JObject)) throw fail(`${path} must be an object, not ${jsonText(value)}`);
    this.path = path;
    this.object = value;
  }

  get keys() { return this.object.keys; }
  get(key) { return this.object.get(key); }

  /** Refuses keys the contract does not define, so a typo is an error rather than an ignored setting. */
  allow(allowed) {
    const unknown = this.keys.find((k) => !allowed.includes(k));
    if (unknown !== undefined) throw fail(`${this.path} has an unknown key '${unknown}' (allowed: ${[...allowed].sort().join(', ')})`);
  }

  field(key, fallback, kind, extract) {
    const value = this.get(key);
    if (value === undefined) {
      if (fallback === undefined) throw fail(`${this.path} needs '${key}'`);
      return fallback;
    }
    const read = extract(value);
    if (read === undefined) throw fail(`${this.path}.${key} must be ${kind}, not ${jsonText(value)}`);
    return read;
  }

  number(key, fallback) {
    return this.field(key, fallback, 'a number', (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined));
  }

  int(key, fallback, low, high) {
    const number = this.number(key, fallback);
    if (!(Number.isInteger(number) && number >= low && number <= high)) {
      throw fail(`${this.path}.${key} must be a whole number from ${low} to ${high}, not ${formatNumber(number)}`);
    }
    return number;
  }

  bool(key, fallback) {
    return this.field(key, fallback, 'true or false', (v) => (typeof v === 'boolean' ? v : undefined));
  }

  string(key, fallback) {
    return this.field(key, fallback, 'a string', (v) => (typeof v === 'string' ? v : undefined));
  }

  /** `[x, y]` (or `[w, h]`) as {x, y}. */
  pair(key) {
    const value = this.get(key);
    if (value === undefined) throw fail(`${this.path} needs '${key}'`);
    const [x, y] = TraceObject.numbers(value, 2, `${this.path}.${key}`);
    return { x, y };
  }

  static numbers(value, count, path) {
    const ok = Array.isArray(value) && value.length === count && value.every((n) => typeof n === 'number' && Number.isFinite(n));
    if (!ok) throw fail(`${path} must be an array of ${count} numbers, not ${jsonText(value)}`);
    return value;
  }
}
