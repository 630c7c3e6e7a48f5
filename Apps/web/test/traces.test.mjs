// Every trace file of the contract and of the project passes the JS engine
// (node Apps/web/bin/deck-gestures.mjs check, WEB.md §8), file by file and as
// the command `make test` and people run; and the tool's usage mistakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { traceFolders, runJsTool, temporaryFolder } from './support.mjs';
import { checkFile } from '../bin/traces/tool.mjs';

const files = traceFolders.flatMap((folder) => fs.readdirSync(folder).filter((f) => f.endsWith('.json')).map((f) => path.join(folder, f)));

test('the trace folders hold traces', () => {
  assert.ok(files.length >= 160, `only ${files.length} trace files`);
  assert.ok(files.some((f) => f.includes('shared/spec/traces')));
});

for (const file of files) {
  test(`trace ${path.basename(file)}`, () => {
    assert.equal(checkFile(file), null);
  });
}

test('deck-gestures.mjs check passes every trace folder, as a process', () => {
  const result = runJsTool(['check', ...traceFolders]);
  assert.equal(result.stdout, `${files.length} passed, 0 failed\n`);
  assert.equal(result.status, 0);
});

test('a failing trace is one FAIL line and exit 1; usage mistakes exit 2', () => {
  const wrong = files.find((f) => f.endsWith('longpress-ends-before-lift.json'));
  const text = fs.readFileSync(wrong, 'utf8').replace('"t": 0.5', '"t": 0.6');
  assert.notEqual(text, fs.readFileSync(wrong, 'utf8'));
  const folder = temporaryFolder('traces');
  fs.writeFileSync(path.join(folder, 'b.json'), text);
  const result = runJsTool(['check', folder]);
  assert.equal(result.status, 1);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^FAIL .*b\.json: /);
  assert.equal(lines[1], '0 passed, 1 failed');
  for (const args of [[], ['check'], ['replay'], ['frobnicate'], ['check', '--verbose', 'x']]) {
    const result = runJsTool(args);
    assert.equal(result.status, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^deck-gestures: /);
  }
  assert.match(runJsTool(['--help']).stdout, /deck-gestures check/);
});
