// One semantics, two engines, proved: thousands of random gesture, deck and
// pager traces, damaged trace files, and random layouts with edits, run
// through the Swift engine (.build/debug/deck-gestures and
// deck-layout-replay, built by `swift build`) and through this one; every
// line, every refusal and every exit status must be the same.
//
// The run is seeded: DECK_TEST_SEED=N reproduces a failure (every failure
// message starts with the seed). DECK_DIFF_SCALE multiplies the counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { random, runSeed, swiftTool, runProgram, temporaryFolder, swiftLayoutText, swiftButtonText } from './support.mjs';
import * as generate from './generate.mjs';
import { run as runTool } from '../bin/traces/tool.mjs';
import { parseTrace, replayTrace } from '../bin/traces/trace.mjs';
import { jsonText } from '../bin/traces/json.mjs';
import { TraceError } from '../bin/traces/trace-object.mjs';
import { DeckLayout, DeckModelError, buttonFromJSON } from '../engine/layout.mjs';
import { DeviceLayout } from '../engine/device-layout.mjs';
import { DeckGesturesError } from '../engine/arrange-session.mjs';

const seed = runSeed();
const scale = Number(process.env.DECK_DIFF_SCALE ?? 1);
const counts = {
  gesture: Math.round(2000 * scale), deck: Math.round(3000 * scale), pager: Math.round(400 * scale),
  checked: Math.round(600 * scale), damaged: Math.round(1000 * scale), layouts: Math.round(4000 * scale),
};
const batch = 500;
const why = (what) => `seed ${seed} (rerun with DECK_TEST_SEED=${seed}): ${what}`;

/** Writes `traces` ({name, …} or text) into a fresh folder; returns the file paths in order. */
function writeTraces(prefix, traces) {
  const folder = temporaryFolder(prefix);
  return traces.map((trace, i) => {
    const file = path.join(folder, `${String(i).padStart(5, '0')}.json`);
    fs.writeFileSync(file, typeof trace === 'string' ? trace : JSON.stringify(trace));
    return file;
  });
}

/** Both tools over `files` with `command`, in batches; on a difference, the first file that differs on its own. */
function compareTools(command, files) {
  const swift = swiftTool('deck-gestures');
  for (let start = 0; start < files.length; start += batch) {
    const some = files.slice(start, start + batch);
    const a = runProgram(swift, [command, ...some]);
    const b = runTool([command, ...some]);
    if (a.stdout === b.output && a.stderr === b.errors && a.status === b.status) continue;
    for (const file of some) {
      const x = runProgram(swift, [command, file]);
      const y = runTool([command, file]);
      assert.deepEqual({ stdout: y.output, stderr: y.errors, status: y.status }, x,
        why(`${command} ${file} differs (JS actual, Swift expected); the trace:\n${fs.readFileSync(file, 'utf8')}`));
    }
    assert.fail(why(`${command} of a batch differs though every file alone agrees`));
  }
}

test('random gesture, deck and pager traces replay alike in both engines', { timeout: 600_000 }, () => {
  const rng = random(seed);
  const traces = [];
  for (let i = 0; i < counts.gesture; i += 1) traces.push(generate.gestureTrace(rng, `gesture ${i}`));
  for (let i = 0; i < counts.deck; i += 1) traces.push(generate.deckTrace(rng, `deck ${i}`));
  for (let i = 0; i < counts.pager; i += 1) traces.push(generate.pagerTrace(rng, `pager ${i}`));
  const files = writeTraces('replay', traces);
  compareTools('replay', files);
  // The traces really exercised the engines (not a comparison of nothing).
  const seen = new Set();
  for (const line of runTool(['replay', ...files]).output.split('\n').filter(Boolean)) seen.add(JSON.parse(line).cb);
  for (const cb of ['changed', 'ended', 'failed', 'hold', 'lift', 'target', 'page', 'move', 'back', 'settings', 'run', 'arrange', 'offset', 'settle']) {
    assert.ok(seen.has(cb), why(`no '${cb}' callback in ${files.length} random traces`));
  }
});

test('check agrees on random expectations, right and wrong', { timeout: 600_000 }, () => {
  const rng = random(seed ^ 0x5eed);
  const traces = [];
  for (let i = 0; i < counts.checked; i += 1) {
    const trace = rng.chance(0.5) ? generate.deckTrace(rng, `deck ${i}`) : generate.gestureTrace(rng, `gesture ${i}`);
    let lines = [];
    try {
      lines = replayTrace(parseTrace(Buffer.from(JSON.stringify(trace)))).map((line) => JSON.parse(jsonText(line)));
    } catch (error) {
      // A deck that cannot be laid out is refused by both tools: still compared below.
      if (!(error instanceof TraceError)) throw error;
    }
    const mutation = rng.int(0, 6);
    if (mutation === 1 && lines.length) lines.splice(rng.int(0, lines.length - 1), 1);
    if (mutation === 2 && lines.length) lines[rng.int(0, lines.length - 1)].t += rng.pick([0.0005, 0.002, 1]);
    if (mutation === 3 && lines.length) {
      const line = rng.pick(lines);
      const key = rng.pick(Object.keys(line).filter((k) => k !== 't'));
      line[key] = rng.pick([null, true, 0, [0, 0], 'x']);
    }
    if (mutation === 4 && lines.length) delete rng.pick(lines)[rng.pick(['cb', 'value', 'slot', 'hint', 'canMove'])];
    if (mutation === 5) lines.push({ t: (lines.at(-1)?.t ?? 0) + rng.pick([0, 0.5]), cb: 'run', slot: [0, 0] });
    traces.push({ ...trace, expect: lines });
  }
  const files = writeTraces('check', traces);
  compareTools('check', files);
  compareTools('check', [path.dirname(files[0])]);
});

test('damaged trace files are refused in the same words', { timeout: 600_000 }, () => {
  const rng = random(seed ^ 0xdead);
  const texts = [];
  for (let i = 0; i < counts.damaged; i += 1) {
    const kind = rng.int(0, 2);
    const trace = kind === 0 ? generate.gestureTrace(rng, `g${i}`) : kind === 1 ? generate.deckTrace(rng, `d${i}`) : generate.pagerTrace(rng, `p${i}`);
    if (rng.chance(0.5)) trace.expect = [];
    texts.push(generate.damagedTrace(rng, trace));
  }
  const files = writeTraces('damaged', texts);
  compareTools('check', files);
  compareTools('replay', files);
});

test('hand-picked awkward files are read or refused alike (byte-order marks, UTF-16, bad UTF-8, escapes, numbers, duplicate keys)', () => {
  const tap = '"gesture":{"tap":{}},"events":[{"t":0,"down":[0,0]},{"t":0.1,"up":[0,0]}]';
  const texts = [
    `\ufeff{${tap},"expect":[]}`, `\ufeff\n{"a":x}`, `{"gesture":{"tap":{"count":2}},"gesture":{"tap":{"count":3}},"events":[],"expect":[]}`,
    // Two equal keys whose values replay differently: the first wins in both.
    '{"gesture":{"tap":{"count":1}},"gesture":{"longPress":{}},"events":[{"t":0,"down":[0,0]},{"t":0,"up":[0,0]}],"expect":[]}',
    '[ x]', '{ "a" : tx }', '[tru]', '[nul]', 'tru', '"abc', '01', '-', '1.', '{"a":1,}', '[1, 2,]', '{"a":1} x', 'NaN', '//c', '',
    '{"a": "x\\q"}', '{"a":"\\ud800"}', '{"a":"\\uDC00"}', '{"a":"\\u12G4"}', '{"a":"\\ud800\\u0041"}', '{"a":"x\u0001"}', '{"a":1e400}',
    '{"a":.5}', '{"a":+1}', '{"a":0x10}', '{"a":1.5e3.2}', '{"a":1e}', '{"a":-}', `{"name":"\\u0000x\\u001f",${tap},"expect":[]}`,
    `{${tap},"expect":[{"t":0}]}`, `{${tap},"expect":[{"t":"0","cb":"x"}]}`, '{"gesture":{"tap":{}},"events":[{"t":0,"down":[0,0],"up":[0,0]}]}',
    '{"gesture":{"tap":{}},"events":[{"t":1E1,"tick":true},{"t":1e+1,"tick":true},{"t":-0,"tick":true}],"expect":[]}',
    '{"gesture":{"tap":{}},"events":[{"t":0,"down":[123456789012345678901234567890,0]}],"expect":[]}',
    '{"deck":{"size":[390,560],"columns":3,"pages":2,"filled":[[0,0],[0,0],[1.5,0]]},"events":[]}',
    '{"deck":{"size":[1,1],"columns":3,"pages":2},"view":{},"events":[]}', '{"pager":{"axis":"vertical","size":[1,10],"count":2,"flip":{"translation":0.2,"predictedEnd":0.3}},"events":[]}',
    '{"gesture":{"tap":{},"view":{"frame":[0,0,1,1]}},"view":{"frame":[0,0,1,2]},"events":[]}', `[${'['.repeat(600)}1${']'.repeat(600)}]`,
  ];
  const folder = temporaryFolder('awkward');
  const files = texts.map((text, i) => {
    const file = path.join(folder, `${String(i).padStart(3, '0')}.json`);
    fs.writeFileSync(file, text);
    return file;
  });
  const utf16 = path.join(folder, 'utf16.json');
  fs.writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{${tap},"expect":[]}`, 'utf16le')]));
  const badUtf8 = path.join(folder, 'bad-utf8.json');
  fs.writeFileSync(badUtf8, Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}')]));
  compareTools('check', [...files, utf16, badUtf8]);
  compareTools('replay', [...files, utf16, badUtf8]);
});

test('usage, help and usage mistakes are worded alike (the help text is written twice, once per tool, on purpose)', () => {
  const swift = swiftTool('deck-gestures');
  for (const args of [[], ['--help'], ['help'], ['-h'], ['check'], ['replay'], ['check', '--help'], ['replay', 'x', '-h'], ['frobnicate'], ['check', '--verbose', 'x'], ['replay', '-'], ['check', 'no/such/file.json']]) {
    const a = runProgram(swift, args);
    const b = runTool(args);
    assert.deepEqual({ stdout: b.output, stderr: b.errors, status: b.status }, a, `deck-gestures ${args.join(' ')}`);
  }
});

/** The JS engine's answer to one deck-layout-replay case, in its words. */
function jsLayoutCase(c) {
  let layout;
  let button;
  try {
    layout = DeckLayout.fromJSON(c.layout);
    if (c.button !== undefined) button = buttonFromJSON(c.button);
  } catch (error) {
    if (error instanceof DeckModelError) return 'invalid';
    throw error;
  }
  try {
    switch (c.op) {
      case 'move': layout.move({ fromPage: c.fromPage, fromIndex: c.fromIndex, toPage: c.toPage, toIndex: c.toIndex, expecting: button }); break;
      case 'set': layout.set({ page: c.page, index: c.index, button }); break;
      case 'clear': layout.clear({ page: c.page, index: c.index, expecting: button ?? null }); break;
      default: {
        const device = new DeviceLayout(layout);
        const request = device.drop({ page: c.fromPage, index: c.fromIndex }, { page: c.toPage, index: c.toIndex });
        if (request === null) return 'none';
        const { fromPage, fromIndex, toPage, toIndex } = request;
        return `ok {"fromPage":${fromPage},"fromIndex":${fromIndex},"toPage":${toPage},"toIndex":${toIndex},"button":${swiftButtonText(request.button)}} ${swiftLayoutText(device.layout)}`;
      }
    }
  } catch (error) {
    if (error instanceof DeckModelError || error instanceof DeckGesturesError) return `error ${error.message}`;
    throw error;
  }
  return `ok ${swiftLayoutText(layout)}`;
}

test('random layouts with moves, drops, sets and clears: the two engines compute the same layout or the same refusal', { timeout: 600_000 }, () => {
  const rng = random(seed ^ 0x1a7);
  const cases = [];
  let base = generate.layout(rng);
  for (let i = 0; i < counts.layouts; i += 1) {
    if (rng.chance(0.15)) base = generate.layout(rng);
    const c = generate.layoutCase(rng, base);
    cases.push(c);
    // Walk on from an accepted edit sometimes, so long chains of moves are compared too.
    const answer = jsLayoutCase(c);
    if (answer.startsWith('ok ') && rng.chance(0.5)) base = JSON.parse(answer.slice(answer.lastIndexOf(' {"slotsPerPage"') + 1));
  }
  const folder = temporaryFolder('layouts');
  const file = path.join(folder, 'cases.jsonl');
  fs.writeFileSync(file, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const swift = runProgram(swiftTool('deck-layout-replay'), [file]);
  assert.equal(swift.status, 0, why(`deck-layout-replay failed: ${swift.stderr}`));
  const swiftLines = swift.stdout.split('\n').slice(0, -1);
  assert.equal(swiftLines.length, cases.length, why('deck-layout-replay answered a different number of cases'));
  const kinds = {};
  cases.forEach((c, i) => {
    const js = jsLayoutCase(c);
    const expected = swiftLines[i];
    // A case the Swift reader refuses is compared by that fact alone: the JS
    // reader's sentences for malformed input are its own (docs: Apps/web/engine/README.md).
    const same = js === 'invalid' ? expected.startsWith('invalid ') : js === expected;
    assert.ok(same, why(`case ${i} differs:\n${JSON.stringify(c)}\n  JS:    ${js}\n  Swift: ${expected}`));
    const kind = `${c.op} ${js.split(' ')[0]}`;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  });
  for (const kind of ['move ok', 'move error', 'drop ok', 'drop error', 'drop none', 'set ok', 'set invalid', 'clear ok', 'clear error']) {
    assert.ok(kinds[kind] > 0, why(`no '${kind}' among ${cases.length} cases: ${JSON.stringify(kinds)}`));
  }
});
