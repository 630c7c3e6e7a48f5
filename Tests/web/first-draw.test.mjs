// Page load → first layout (issue 15: ≤ 150 ms): over HTTP/1.1 a browser
// fetches six files at a time, so what decides the first draw is how many
// modules stand in front of it. These keep that number honest: the arrange
// session stays out of the page's static graph, and the preloads list every
// module the app loads, the first draw's before the session's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { graphFrom, pageModules } from './module-graph.mjs';

const root = fileURLToPath(new URL('../../Apps/web/', import.meta.url));
const { scripts, preloads } = pageModules(root);
const { staticGraph, deferred } = graphFrom(root, scripts);

test('the first draw does not wait for the arrange session or the recognizers', () => {
  for (const heavy of ['engine/arrange-session.mjs', 'engine/recognizers.mjs', 'engine/combinators.mjs', 'engine/swipe-pager.mjs']) {
    assert.ok(!staticGraph.has(heavy), `${heavy} is imported statically from the page (${scripts.join(', ')})`);
    assert.ok(deferred.has(heavy), `${heavy} is never loaded by the app`);
  }
  // The engine has more modules than the first draw needs; if this grows, the first draw waits longer.
  assert.ok(staticGraph.size <= 23, `${staticGraph.size} modules before the first draw: ${[...staticGraph].sort().join(' ')}`);
});

test('every module the app loads is preloaded, the first draw\'s first', () => {
  const wanted = new Set([...staticGraph, ...deferred].filter((f) => !scripts.includes(f)));
  assert.deepEqual([...new Set(preloads)].sort(), [...wanted].sort(), 'preloads (index.html) differ from the modules the app loads');
  assert.equal(new Set(preloads).size, preloads.length, 'a module is preloaded twice');
  const lastCritical = Math.max(...preloads.map((f, i) => (staticGraph.has(f) ? i : -1)));
  const firstDeferred = preloads.findIndex((f) => deferred.has(f));
  assert.ok(lastCritical < firstDeferred, `${preloads[firstDeferred]} is preloaded before ${preloads[lastCritical]}, which the first draw needs`);
});

test('the graph reader sees every module of the app', () => {
  // engine/index.mjs is the engine's one-import entry for other programs (bin/, tests), not the page's.
  const onDisk = ['js', 'engine'].flatMap((dir) => readdirSync(new URL(dir, `file://${root}`)).filter((f) => f.endsWith('.mjs')).map((f) => `${dir}/${f}`));
  const unused = onDisk.filter((f) => !staticGraph.has(f) && !deferred.has(f));
  assert.deepEqual(unused, ['engine/index.mjs']);
});
