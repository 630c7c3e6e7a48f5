// The one place the app meets the engine (../engine, the port of
// DeckGestures; its README gives these shapes): how the session and the
// layout copy are made, how events are spelled, how outputs read.
//
// Two halves, on purpose (page load → first layout): the grid and the layout
// copy are imported here, so the first layout is drawn as soon as they and
// the renderer are in; the arrange session, with the recognizers, the pager
// and the rest of the engine under it, is fetched by `loadSession` and takes
// the touches from when it arrives, once the first layout is on screen
// (main.mjs).
// Importing the session statically here would put every engine module back in
// front of the first draw.

import { DeckLayout } from '../engine/layout.mjs';
import { DeviceGrid } from '../engine/device-grid.mjs';
import { DeckGrid } from '../engine/grid.mjs';
import { DeviceLayout } from '../engine/device-layout.mjs';
import { PageStrip } from '../engine/page-strip.mjs';

export { DeckLayout, DeviceLayout };

/** The deck's distance between two pages. */
export const PAGE_GAP = PageStrip.deckGap;

/** The grid of `size` with the deck's columns for its orientation (3 × 4 upright, else 4 × 3). */
export const makeGrid = (size, slotsPerPage) => DeviceGrid.forSize(size, slotsPerPage);

/** The columns `makeGrid` gives a page of `size`, for fitting the grid before it is made. */
export const gridColumns = (size, slotsPerPage) => DeviceGrid.columnsFor(size, slotsPerPage);

/** The space between two cells, as the grid lays them. */
export const GRID_SPACING = DeckGrid.defaultSpacing;

/**
 * The arrange session's maker, once its modules are in.
 * @returns {Promise<(parts: {grid: object, layout: object, page: number, arranging: boolean,
 *   protocolLevel: number, hintSize: {width: number, height: number}}) => object>}
 */
export async function loadSession() {
  const { ArrangeSession } = await import('../engine/arrange-session.mjs');
  /** A session showing `layout`. */
  return ({ grid, layout, page, arranging, protocolLevel, hintSize }) =>
    new ArrangeSession({ grid, layout, page: Math.min(page, layout.pages.length - 1), arranging, protocolLevel, hintSize });
}

/** The optimistic copy of a host layout (JSON as the wire has it); throws on a malformed one. */
export const makeCopy = (json) => new DeviceLayout(DeckLayout.fromJSON(json));
/** A host layout (JSON) as the copy takes it; throws on a malformed one. */
export const readLayout = (json) => DeckLayout.fromJSON(json);

/** A touch for `session.handle`, in the grid's space. */
export const touchEvent = (phase, location, time) => ({ kind: 'touch', touch: { phase, x: location.x, y: location.y, time } });
/** The clock reaching `time`. */
export const tickEvent = (time) => ({ kind: 'tick', time });
/** An app event: done, hostLocked, disconnected, background, released (arms the 0.05 s guard). */
export const appEvent = (name, time) => ({ kind: 'app', event: name, time });

/** An output's action: `{kind, slot?, from?, to?, page?, on?, hint?}`. */
export const actionOf = (output) => output.action;
