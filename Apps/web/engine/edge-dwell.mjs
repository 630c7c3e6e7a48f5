// Page flips while a lifted button dwells at a side edge: a port of
// Modules/DeckGeometry/EdgeDwellPager.swift. Pure time arithmetic: the caller
// says where the finger is and what time it is, and learns whether to flip
// and when to ask again; nothing reads a clock or polls.
import { VirtualTime } from './time.mjs';

/** Edge dwell paging, driven by the caller's clock. */
export class EdgeDwellPager {
  /** Width of the zone inside each side edge, in points. */
  static zoneWidth = 40;
  /** From entering a zone to the first flip, in seconds. */
  static firstDelay = 0.5;
  /** Between further flips while the finger stays, in seconds (longer, to give time to look at the new page). */
  static repeatDelay = 0.7;

  constructor() {
    /** @type {{edge:'left'|'right', nextFlip:number}|null} */
    this.dwell = null;
  }

  /**
   * The edge zone that holds `x` in a grid `width` wide, or null; a finger
   * beyond the grid's edge still counts as at that edge (x alone).
   * @param {number} x @param {number} width @returns {'left'|'right'|null}
   */
  static edge(x, width) {
    if (x < EdgeDwellPager.zoneWidth) return 'left';
    if (x > width - EdgeDwellPager.zoneWidth) return 'right';
    return null;
  }

  /**
   * Feeds the finger's position at `now` (after a move, or at the last
   * deadline). Entering a zone starts the wait, leaving it resets it; a due
   * flip happens once per call and the next is scheduled from the flip's own
   * instant, not from when the caller got round to it.
   * @param {{x:number, width:number, now:number, page:number, pageCount:number}} input
   * @returns {{newPage:number|null, deadline:number|null}}
   */
  update({ x, width, now, page, pageCount }) {
    const edge = EdgeDwellPager.edge(x, width);
    if (edge === null) {
      this.dwell = null;
      return { newPage: null, deadline: null };
    }
    if (this.dwell?.edge !== edge) this.dwell = { edge, nextFlip: now + EdgeDwellPager.firstDelay };
    const current = { ...this.dwell };
    let shown = page;
    let flipped = null;
    const next = neighbour(page, edge, pageCount);
    if (VirtualTime.isDue(current.nextFlip, now) && next !== null) {
      flipped = next;
      shown = next;
      current.nextFlip += EdgeDwellPager.repeatDelay;
      this.dwell = current;
    }
    const more = neighbour(shown, edge, pageCount) !== null;
    return { newPage: flipped, deadline: more ? current.nextFlip : null };
  }

  /** Forgets the dwell (the button was dropped or went back). */
  reset() { this.dwell = null; }
}

/** The page next to `page` on the side of `edge`, or null past either end. */
function neighbour(page, edge, pageCount) {
  const next = edge === 'left' ? page - 1 : page + 1;
  return next >= 0 && next < pageCount ? next : null;
}
