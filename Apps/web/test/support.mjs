// Shared helpers of the web engine's tests: the repository's places, the
// Swift tools, a seeded random source, and the Swift engine's JSON bytes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { swiftDescription } from '../engine/swift-number.mjs';

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Where `swift build` put the Swift tools (DECK_BIN overrides, as for ../shared/checks). */
export const swiftBin = process.env.DECK_BIN ?? path.join(root, '.build/debug');
/** The JS tool. */
export const jsTool = path.join(root, 'Apps/web/bin/deck-gestures.mjs');
/** The trace folders every engine must pass. */
export const traceFolders = [path.join(root, '../shared/spec/traces'), path.join(root, 'Tests/DeckGestureTracesTests/Traces')];

/**
 * The path of a built Swift tool; fails loudly when it is missing (the
 * differential test compares with it and must never pass without it).
 * @param {string} name
 */
export function swiftTool(name) {
  const file = path.join(swiftBin, name);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`swift build\` first (or set DECK_BIN to the folder holding ${name})`);
  return file;
}

/** Runs a program; returns {stdout, stderr, status}. */
export function runProgram(program, args, { cwd = root, input } = {}) {
  const result = spawnSync(program, args, { cwd, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.error) throw result.error;
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** Runs the JS deck-gestures as a process, as `make test` and people do. */
export function runJsTool(args, options) {
  return runProgram(process.execPath, [jsTool, ...args], options);
}

let scratch = null;

/** A fresh temporary folder, removed (with all the others) when the process ends. */
export function temporaryFolder(prefix) {
  if (scratch === null) {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deck-web-tests-'));
    process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
  }
  return fs.mkdtempSync(path.join(scratch, `${prefix}-`));
}

/**
 * A seeded random source (mulberry32), so a failure reproduces from its seed.
 * @param {number} seed
 */
export function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [low, high]. */
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    /** One of `items`. */
    pick: (items) => items[Math.floor(next() * items.length)],
    /** True with probability `p`. */
    chance: (p) => next() < p,
  };
}

/** The seed of this run: DECK_TEST_SEED, else a fixed one (printed with every failure). */
export function runSeed() {
  // Fixed by default so `make test` is deterministic (a random seed made CI depend on luck);
  // DECK_TEST_SEED=N replays a failure, DECK_TEST_SEED=random explores new ground.
  const given = process.env.DECK_TEST_SEED;
  if (given === 'random') return Math.floor(Math.random() * 2 ** 32);
  return given === undefined ? defaultSeed : Number(given);
}

/** The seed of every randomised test when none is given. */
const defaultSeed = 20261201;

/** A number as DeckModel's JSONWriter writes it (integral below 2^53 as an integer, else Swift's description). */
function swiftNumber(value) {
  return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? String(value) : swiftDescription(value);
}

/** A plain JSON value as JSONWriter writes it: compact, object keys sorted (plugin settings). */
function swiftValue(value) {
  if (value === null) return 'null';
  if (typeof value === 'number') return swiftNumber(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(swiftValue).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${swiftValue(value[k])}`).join(',')}}`;
}

/** A button as JSONWriter writes it. */
export function swiftButtonText(button) {
  if (button === null) return 'null';
  const a = button.action;
  const parts = [`"name":${JSON.stringify(button.name)}`];
  if (button.icon != null) parts.push(`"icon":${JSON.stringify(button.icon)}`);
  const kind = ['run', 'open', 'page', 'profile', 'plugin'].find((k) => a[k] != null);
  const action = [`${JSON.stringify(kind)}:${swiftValue(a[kind])}`];
  if (kind === 'run' && a.cwd != null) action.push(`"cwd":${JSON.stringify(a.cwd)}`);
  if (kind === 'run' && a.timeout != null) action.push(`"timeout":${swiftNumber(a.timeout)}`);
  if (kind === 'run' && a.follow != null) action.push(`"follow":${JSON.stringify(a.follow)}`);
  if (kind === 'plugin') action.push(`"command":${JSON.stringify(a.command)}`);
  if (kind === 'plugin' && a.settings != null) action.push(`"settings":${swiftValue(a.settings)}`);
  parts.push(`"action":{${action.join(',')}}`);
  // docs/faces.md §1: style {color?, background?}, states [{id, name?, icon?, style?}], after the action.
  const style = (st) => `{${[['color', st.color], ['background', st.background]].filter(([, v]) => v != null)
    .map(([k, v]) => `"${k}":${JSON.stringify(v)}`).join(',')}}`;
  if (button.style != null) parts.push(`"style":${style(button.style)}`);
  if (button.states != null) {
    parts.push(`"states":[${button.states.map((st) => `{${[`"id":${JSON.stringify(st.id)}`,
      ...(st.name != null ? [`"name":${JSON.stringify(st.name)}`] : []), ...(st.icon != null ? [`"icon":${JSON.stringify(st.icon)}`] : []),
      ...(st.style != null ? [`"style":${style(st.style)}`] : [])].join(',')}}`).join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/** A layout as JSONWriter writes it (PROTOCOL.md §3). */
export function swiftLayoutText(layout) {
  const pages = layout.pages.map((page) => {
    const title = page.title != null ? `"title":${JSON.stringify(page.title)},` : '';
    return `{${title}"buttons":[${page.buttons.map(swiftButtonText).join(',')}]}`;
  });
  return `{"slotsPerPage":${layout.slotsPerPage},"pages":[${pages.join(',')}]}`;
}
