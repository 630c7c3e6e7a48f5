// Page load → first layout (issue 15: ≤ 150 ms): over HTTP/1.1 a browser
// fetches six files at a time, so what decides the first draw is how many
// modules stand in front of it. These keep that number honest: the arrange
// session stays out of the page's static graph, the page preloads exactly the
// first draw's modules, and the session's list (preloaded after the first
// draw) is exactly what its import loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { graphFrom, importsOf, laterPreloads, pageModules } from './module-graph.mjs';

const root = fileURLToPath(new URL('../../Apps/web/', import.meta.url));
const { scripts, preloads } = pageModules(root);
const { staticGraph, deferred } = graphFrom(root, scripts);

test('the first draw does not wait for the arrange session, the recognizers or the settings sheet', () => {
  for (const heavy of ['engine/arrange-session.mjs', 'engine/recognizers.mjs', 'engine/combinators.mjs', 'engine/swipe-pager.mjs',
    'js/settings.mjs', 'js/actions.mjs']) {
    assert.ok(!staticGraph.has(heavy), `${heavy} is imported statically from the page (${scripts.join(', ')})`);
    assert.ok(deferred.has(heavy), `${heavy} is never loaded by the app`);
  }
  // The engine has more modules than the first draw needs; if this grows, the first draw waits longer.
  assert.ok(staticGraph.size <= 18, `${staticGraph.size} modules before the first draw: ${[...staticGraph].sort().join(' ')}`);
});

test('every module of the first draw is preloaded by the page, the later parts\' by main.mjs', () => {
  // The page's preloads are exactly the first draw's modules (a module added to its graph and not
  // here would be fetched import by import); the later parts' are in LATER_MODULES, preloaded at once
  // after the first draw, and none of them by the page, where they would compete with the draw.
  const critical = [...staticGraph].filter((f) => !scripts.includes(f));
  assert.deepEqual([...new Set(preloads)].sort(), critical.sort(), 'preloads (index.html) differ from the first draw\'s modules');
  assert.equal(new Set(preloads).size, preloads.length, 'a module is preloaded twice');
  const later = laterPreloads(root);
  assert.deepEqual([...later].sort(), [...deferred].sort(), 'LATER (js/main.mjs) differs from the modules loaded after the first draw');
  assert.equal(new Set(later).size, later.length, 'a later module is listed twice');
});

test('boot.mjs, which opens the socket, waits for no other module before it runs', () => {
  const { statics, dynamics } = importsOf(root, 'js/boot.mjs');
  assert.deepEqual(statics, [], 'boot.mjs imports statically: it would run only once those modules are in');
  assert.deepEqual(dynamics, ['js/connection.mjs']);
  assert.equal(preloads[0], 'js/connection.mjs', 'what boot.mjs awaits is not the first module preloaded');
  assert.equal(scripts[0], 'js/boot.mjs', 'boot.mjs is not the page\'s first script');
});

test('the graph reader sees every module of the app', () => {
  // engine/index.mjs is the engine's one-import entry for other programs (bin/, tests), not the page's.
  const onDisk = ['js', 'engine'].flatMap((dir) => readdirSync(new URL(dir, `file://${root}`)).filter((f) => f.endsWith('.mjs')).map((f) => `${dir}/${f}`));
  const unused = onDisk.filter((f) => !staticGraph.has(f) && !deferred.has(f));
  assert.deepEqual(unused, ['engine/index.mjs']);
});
