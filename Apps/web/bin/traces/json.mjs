// JSON as the Swift `deck-gestures` reads and writes it (Modules/DeckGestureTraces/TraceValue.swift):
// - reading: what Foundation on Linux accepts (trailing commas in arrays and
//   objects too) and, for broken text, Foundation's own sentence with its
//   byte offset turned into "line L, column C: reason";
// - values: numbers, strings, booleans, null, arrays, and `JObject`s whose
//   keys are sorted (as the Swift tool sorts them; the first of two equal keys wins, as there);
// - writing: compact, `", "` and `": "` separators, numbers rounded to nine
//   decimals with Swift's digits, so every line is byte-identical.
import { swiftDescription } from '../../engine/swift-number.mjs';

/** A parsed JSON object: its fields in key order. */
export class JObject {
  /** @param {[string, unknown][]} fields sorted by key */
  constructor(fields) { this.fields = fields; }
  /** The value of `key`, or undefined. */
  get(key) { return this.fields.find(([k]) => k === key)?.[1]; }
  /** The keys, sorted. */
  get keys() { return this.fields.map(([k]) => k); }
}

/** An object value built in code: fields in the order given (an output line). */
export class Line {
  /** @param {[string, unknown][]} fields */
  constructor(fields) { this.fields = fields; }
  get(key) { return this.fields.find(([k]) => k === key)?.[1]; }
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0. */
function utf8Length(bytes, i, end) {
  const b = bytes[i];
  const need = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (need === 0 || i + need > end) return 0;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i, i + need));
    return need;
  } catch {
    return 0;
  }
}

const isSpace = (b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

class Syntax extends Error {
  /** @param {string} reason Foundation's sentence */
  constructor(reason) { super(reason); }
}

/** Foundation's JSONSerialization reading of `bytes` (a Uint8Array), throwing Syntax with its sentence. */
class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.i = 0;
    this.decoder = new TextDecoder('utf-8', { fatal: true });
  }

  /** The text of bytes [start, end) of a string; invalid UTF-8 is refused as Foundation words it. */
  text(start, end) {
    try {
      return this.decoder.decode(this.bytes.subarray(start, end));
    } catch {
      let i = start;
      while (i < end) {
        const length = utf8Length(this.bytes, i, end);
        if (length === 0) throw new Syntax(`Invalid UTF-8 sequence 1 bytes starting from character ${i}.`);
        i += length;
      }
      throw new Syntax(`Invalid UTF-8 sequence 1 bytes starting from character ${start}.`);
    }
  }

  peek(offset = 0) { return this.i + offset < this.bytes.length ? this.bytes[this.i + offset] : undefined; }
  read() {
    if (this.i >= this.bytes.length) { this.i = this.bytes.length; return undefined; }
    return this.bytes[this.i++];
  }
  eof() { return new Syntax('Unexpected end of file during JSON parse.'); }
  invalid(index) { return new Syntax(`Invalid value around character ${index}.`); }

  skipSpace() {
    for (let b = this.peek(); b !== undefined; b = this.peek()) {
      if (!isSpace(b)) return b;
      this.i += 1;
    }
    throw this.eof();
  }

  document() {
    this.skipSpace();
    const value = this.value(0);
    for (let offset = 0; this.peek(offset) !== undefined; offset += 1) {
      if (!isSpace(this.peek(offset))) throw this.invalid(this.i + offset);
    }
    // Foundation turns numbers into values after the whole text is read: a
    // broken structure later in the text is the refusal, not the number.
    if (this.unrepresentable !== undefined) throw new Syntax(`Number ${this.unrepresentable} is not representable in Swift.`);
    return value;
  }

  value(depth) {
    for (let space = 0; this.peek(space) !== undefined; space += 1) {
      const b = this.peek(space);
      if (isSpace(b)) continue;
      this.i += space;
      if (b === 0x22) return this.string();
      if (b === 0x7b) return this.object(depth + 1);
      if (b === 0x5b) return this.array(depth + 1);
      if (b === 0x74) return this.literal('true', true);
      if (b === 0x66) return this.literal('false', false);
      if (b === 0x6e) return this.literal('null', null);
      if (b === 0x2d || (b >= 0x30 && b <= 0x39)) return this.number();
      throw this.invalid(this.i);
    }
    throw this.eof();
  }

  literal(word, value) {
    for (let k = 0; k < word.length; k += 1) {
      if (this.read() !== word.charCodeAt(k)) {
        if (this.i >= this.bytes.length) throw this.eof();
        throw this.invalid(this.i - 1);
      }
    }
    return value;
  }

  nested(depth) {
    if (depth > 512) throw new Syntax(`Too many nested arrays or dictionaries around character ${this.i + 1}.`);
  }

  array(depth) {
    this.nested(depth);
    this.i += 1;
    const out = [];
    if (this.skipSpace() === 0x5d) { this.i += 1; return out; }
    for (;;) {
      out.push(this.value(depth));
      const b = this.skipSpace();
      if (b === 0x5d) { this.i += 1; return out; }
      if (b !== 0x2c) throw this.invalid(this.i);
      this.i += 1;
      // Foundation takes a trailing comma.
      if (this.skipSpace() === 0x5d) { this.i += 1; return out; }
    }
  }

  object(depth) {
    this.nested(depth);
    this.i += 1;
    const fields = new Map();
    const done = () => new JObject([...fields.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (this.skipSpace() === 0x7d) { this.i += 1; return done(); }
    for (;;) {
      if (this.read() !== 0x22) throw this.invalid(this.i - 1);
      this.i -= 1;
      const key = this.string();
      if (this.skipSpace() !== 0x3a) throw this.invalid(this.i);
      this.i += 1;
      this.skipSpace();
      const value = this.value(depth);
      // The first of two equal keys wins, as Foundation's JSONDecoder keeps it.
      if (!fields.has(key)) fields.set(key, value);
      const b = this.skipSpace();
      if (b === 0x7d) { this.i += 1; return done(); }
      if (b !== 0x2c) throw this.invalid(this.i);
      this.i += 1;
      if (this.skipSpace() === 0x7d) { this.i += 1; return done(); }
    }
  }

  string() {
    this.i += 1;
    let out = '';
    let start = this.i;
    for (;;) {
      const b = this.peek();
      if (b === undefined) throw this.eof();
      if (b === 0x22) {
        out += this.text(start, this.i);
        this.i += 1;
        return out;
      }
      if (b < 0x20) throw new Syntax(`Unescaped control character around character ${this.i}.`);
      if (b !== 0x5c) { this.i += 1; continue; }
      out += this.text(start, this.i);
      out += this.escape();
      start = this.i;
    }
  }

  escape() {
    this.i += 1; // the backslash
    const b = this.read();
    if (b === undefined) throw this.eof();
    const simple = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' }[b];
    if (simple !== undefined) return simple;
    if (b !== 0x75) throw new Syntax(`Invalid escape sequence around character ${this.i - 2}.`);
    const high = this.hex();
    if ((high & 0xfc00) === 0xd800) {
      const slash = this.read();
      const u = this.read();
      if (slash === undefined || u === undefined) throw this.eof();
      const lowSurrogate = new Syntax('Unexpected end of file during string parse (expected low-surrogate code point but did not find one).');
      if (slash !== 0x5c || u !== 0x75) throw lowSurrogate;
      const low = this.hex();
      if ((low & 0xfc00) !== 0xdc00) throw lowSurrogate;
      return String.fromCodePoint((high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000);
    }
    if ((high & 0xfc00) === 0xdc00) throw new Syntax('Unable to convert hex escape sequence (no high character) to UTF8-encoded character.');
    return String.fromCharCode(high);
  }

  hex() {
    const start = this.i;
    const digits = [this.read(), this.read(), this.read(), this.read()];
    if (digits.includes(undefined)) throw this.eof();
    const text = String.fromCharCode(...digits);
    if (!/^[0-9a-fA-F]{4}$/.test(text)) throw new Syntax(`Invalid hex encoded sequence in "${new TextDecoder().decode(new Uint8Array(digits))}" at ${start}.`);
    return parseInt(text, 16);
  }

  number() {
    const start = this.i;
    let stage = 'operand'; // operand, point, exp, sign
    let since = this.bytes[start] === 0x2d ? 0 : 1;
    let leadingZero = this.bytes[start] === 0x30;
    let n = 1;
    for (let b = this.peek(n); ; b = this.peek(n)) {
      if (b === undefined) {
        if (since === 0) throw this.eof();
        break;
      }
      if (b >= 0x30 && b <= 0x39) {
        if (leadingZero) throw new Syntax(`Number with leading zero around character ${this.i + n}.`);
        if (b === 0x30 && since === 0 && stage === 'operand') leadingZero = true;
        n += 1;
        since += 1;
      } else if (b === 0x2e) {
        if (!(since > 0 && stage === 'operand')) throw this.invalid(this.i + n);
        n += 1; leadingZero = false; stage = 'point'; since = 0;
      } else if (b === 0x65 || b === 0x45) {
        if (!(since > 0 && (stage === 'operand' || stage === 'point'))) throw this.invalid(this.i + n);
        n += 1; leadingZero = false; stage = 'exp'; since = 0;
      } else if (b === 0x2b || b === 0x2d) {
        if (!(since === 0 && stage === 'exp')) throw this.invalid(this.i + n);
        n += 1; stage = 'sign'; since = 0;
      } else if (b === 0x7d || b === 0x5d || b === 0x2c || isSpace(b)) {
        if (since === 0) throw this.invalid(this.i + n);
        break;
      } else {
        throw this.invalid(this.i + n);
      }
    }
    this.i += n;
    const text = String.fromCharCode(...this.bytes.subarray(start, this.i));
    const value = Number(text);
    if (!Number.isFinite(value)) this.unrepresentable ??= text;
    return value;
  }
}

/** A trace file that is not JSON, with the reason as the Swift tool words it. */
export class NotJSON extends Error {}

/**
 * Parses JSON bytes as the Swift tool does; throws NotJSON with the text in
 * the parentheses of "not valid JSON (…)".
 * @param {Uint8Array} bytes
 */
export function parseJSON(bytes) {
  // Foundation reads a UTF-16 text by its byte-order mark.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    bytes = new TextEncoder().encode(new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2)));
  }
  // Foundation skips a UTF-8 byte-order mark, and counts its offsets after it.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return new Reader(bytes.subarray(bom)).document();
  } catch (error) {
    if (!(error instanceof Syntax)) throw error;
    const reason = error.message;
    const marker = reason.indexOf('around character ');
    if (marker < 0) throw new NotJSON(reason);
    const offset = Number(/^\d+/.exec(reason.slice(marker + 'around character '.length))?.[0]);
    if (!Number.isInteger(offset)) throw new NotJSON(reason);
    const before = bytes.subarray(0, Math.min(offset, bytes.length));
    const line = before.filter((b) => b === 0x0a).length + 1;
    const lastNewline = before.lastIndexOf(0x0a);
    const column = before.length - (lastNewline < 0 ? 0 : lastNewline + 1) + 1;
    throw new NotJSON(`line ${line}, column ${column}: ${reason.slice(0, marker).trim().toLowerCase()}`);
  }
}

/**
 * Numbers as the tool writes them: rounded to nine decimals (so 0.6 + 0.5
 * prints as 1.1), whole ones without a decimal point, otherwise Swift's digits.
 * @param {number} number
 */
export function formatNumber(number) {
  if (!Number.isFinite(number)) return 'null';
  const scaled = number * 1e9;
  // Swift's `.rounded()`: to nearest, ties away from zero.
  const rounded = (scaled < 0 ? -Math.round(-scaled) : Math.round(scaled)) / 1e9;
  if (Number.isInteger(rounded) && Math.abs(rounded) < 1e15) return String(rounded === 0 ? 0 : rounded);
  return swiftDescription(rounded);
}

/** A string in quotes, escaping what the Swift tool escapes. */
export function quote(string) {
  let out = '"';
  for (const ch of string) {
    const code = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Compact JSON text on one line, as the tool prints values. */
export function jsonText(value) {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(', ')}]`;
  if (value instanceof JObject || value instanceof Line) {
    return `{${value.fields.map(([k, v]) => `${quote(k)}: ${jsonText(v)}`).join(', ')}}`;
  }
  throw new TypeError(`not a trace value: ${value}`);
}

/** Whether two trace values are equal as Swift's TraceValue `==` says (objects: same fields in the same order). */
export function traceEqual(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => traceEqual(x, b[i]));
  return a.fields.length === b.fields.length && a.fields.every(([k, v], i) => b.fields[i][0] === k && traceEqual(v, b.fields[i][1]));
}

/** Whether a value is an object (parsed or built). */
export const isObject = (value) => value instanceof JObject || value instanceof Line;
