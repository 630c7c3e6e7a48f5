// What the deck loads once its first layout is on screen (page load → first
// layout): the arrange session, and what only a touch or a reply can need —
// the settings sheet, refusals in words, the wake lock. Fetched before, their
// modules would take the browser's six connections and its main thread from
// the modules drawing needs; touches meanwhile are kept (early-touches.mjs).

import { loadSession } from './engine-api.mjs';

/**
 * Every module `loadLater` reaches that the first draw did not load, preloaded
 * at once rather than import by import; `Tests/web/first-draw.test.mjs` keeps
 * the list in step with the imports.
 */
export const LATER_MODULES = [
  '../engine/arrange-session.mjs', '../engine/arrange-touch.mjs', '../engine/recognizers.mjs', '../engine/combinators.mjs',
  '../engine/tracker.mjs', '../engine/time.mjs', '../engine/swipe-pager.mjs', '../engine/edge-dwell.mjs',
  '../engine/hold-hint.mjs', '../engine/wiggle.mjs', './settings.mjs', './actions.mjs', './refusals.mjs', './wake-lock.mjs',
].map((path) => new URL(path, import.meta.url).href);

/**
 * The later parts, all fetched at once: the session's maker and the classes
 * of the rest. A failed fetch (the host went away) rejects; calling it again
 * tries again.
 */
export async function loadLater() {
  for (const href of LATER_MODULES) {
    document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
  }
  const [makeSession, { SettingsSheet }, { refusalWords }, { WakeLock }] = await Promise.all([
    loadSession(), import('./settings.mjs'), import('./refusals.mjs'), import('./wake-lock.mjs'),
  ]);
  return { makeSession, SettingsSheet, refusalWords, WakeLock };
}
