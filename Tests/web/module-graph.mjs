// The web app's module graph as the browser finds it: the page's module
// scripts and preloads (index.html), each module's static imports, and the
// modules it imports dynamically. For the first-draw test.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Comments out of the way, so an example in one is not taken for an import. */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/**
 * The static and dynamic imports of one module, as paths relative to `root`.
 * @param {string} root the app's folder @param {string} file a path under it
 * @returns {{statics: string[], dynamics: string[]}}
 */
export function importsOf(root, file) {
  const text = code(readFileSync(join(root, file), 'utf8'));
  const resolve = (spec) => normalize(join(dirname(file), spec));
  const statics = [...text.matchAll(/(?:^|[;\n])\s*(?:import|export)\s(?:[^'"();]*?\sfrom\s*)?['"]([^'"]+)['"]/g)].map((m) => resolve(m[1]));
  const dynamics = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => resolve(m[1]));
  return { statics, dynamics };
}

/**
 * Every module reachable from `entries` by static imports alone, and those
 * the dynamic imports of any of them reach (with their own static imports).
 * @returns {{staticGraph: Set<string>, deferred: Set<string>}}
 */
export function graphFrom(root, entries) {
  const walk = (starts, into, skip = new Set()) => {
    const todo = [...starts];
    const found = [];
    while (todo.length) {
      const file = todo.pop();
      if (into.has(file) || skip.has(file)) continue;
      into.add(file);
      const { statics, dynamics } = importsOf(root, file);
      todo.push(...statics);
      found.push(...dynamics);
    }
    return found;
  };
  const staticGraph = new Set();
  let dynamic = walk(entries, staticGraph);
  const deferred = new Set();
  while (dynamic.length) {
    const next = walk(dynamic, deferred, staticGraph);
    dynamic = next.filter((f) => !deferred.has(f) && !staticGraph.has(f));
  }
  return { staticGraph, deferred };
}

/**
 * The page's module scripts and modulepreload links, in document order.
 * @returns {{scripts: string[], preloads: string[]}}
 */
export function pageModules(root) {
  const html = readFileSync(join(root, 'index.html'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const scripts = [...html.matchAll(/<script type="module"(?: async)? src="([^"]+)"/g)].map((m) => normalize(m[1]));
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => normalize(m[1]));
  return { scripts, preloads };
}

/**
 * The modules main.mjs preloads after the first draw (its `LATER` list), as paths under the app.
 * @returns {string[]}
 */
export function laterPreloads(root) {
  const list = /const LATER = \[([^\]]*)\]/.exec(code(readFileSync(join(root, 'js/main.mjs'), 'utf8')));
  return list ? [...list[1].matchAll(/'([^']+)'/g)].map((m) => `${m[1]}.mjs`) : [];
}

export const relativeTo = (root, path) => relative(root, path);
