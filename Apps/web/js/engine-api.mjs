// The one place the app meets the engine (../engine, the port of
// DeckGestures; its README gives these shapes): how the session and the
// layout copy are made, how events are spelled, how outputs read.

import { ArrangeSession, DeckLayout, DeviceGrid, DeviceLayout, PageStrip } from '../engine/index.mjs';

export { ArrangeSession, DeckLayout, DeviceLayout };

/** The deck's distance between two pages. */
export const PAGE_GAP = PageStrip.deckGap;

/** The grid of `size` with the deck's columns for its orientation (3 × 4 upright, else 4 × 3). */
export const makeGrid = (size, slotsPerPage) => DeviceGrid.forSize(size, slotsPerPage);

/** A session showing `layout`. */
export function makeSession({ grid, layout, page, arranging, protocolLevel, hintSize }) {
  return new ArrangeSession({ grid, layout, page: Math.min(page, layout.pages.length - 1), arranging, protocolLevel, hintSize });
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
