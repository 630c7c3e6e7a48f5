// The one place the app meets the engine (../engine, a port of DeckGestures):
// how its session is made, how events are spelled and how its outputs read.

import { DeckGrid } from '../engine/grid.mjs';
import { ArrangeSession } from '../engine/arrange-session.mjs';
import { DeviceLayout } from '../engine/device-layout.mjs';

export { DeckGrid, ArrangeSession, DeviceLayout };

/** The deck's distance between two pages (PageStrip.deckGap). */
export const PAGE_GAP = 32;

/**
 * A grid of `size` with the deck's columns for its orientation (WEB.md §6:
 * 3 × 4 when taller than wide, 4 × 3 otherwise).
 */
export function makeGrid(size, slotsPerPage) {
  const columns = size.height > size.width ? 3 : 4;
  return new DeckGrid({ size, columns: slotsPerPage === 12 ? columns : Math.min(columns, slotsPerPage), slotsPerPage });
}

/** A session showing `layout`. */
export function makeSession({ grid, layout, page, arranging, protocolLevel, hintSize }) {
  return new ArrangeSession({ grid, layout, page: Math.min(page, layout.pages.length - 1), arranging, protocolLevel, hintSize });
}

/** A touch for `session.handle`. */
export const touchEvent = (phase, location, time) => ({ kind: 'touch', touch: { phase, x: location.x, y: location.y, time } });
/** The clock reaching `time`. */
export const tickEvent = (time) => ({ kind: 'tick', time });
/** An app event: done, hostLocked, disconnected, background, released (arms the 0.05 s guard). */
export const appEvent = (name, time) => ({ kind: 'app', event: name, time });

/**
 * An output as the controller reads it.
 * @returns {{kind: string, slot?: {page:number,index:number}, from?: object, to?: object, page?: number, on?: boolean, hint?: object}}
 */
export function actionOf(output) {
  return output.action ?? output;
}
