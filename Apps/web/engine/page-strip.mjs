// Pages side by side as one strip under a one-page window: a port of
// Modules/DeckGeometry/PageStrip.swift. All pages stay laid out, so a button
// dragged across a page change keeps its element and its touch.

/** Pages laid side by side as one long strip; its single offset decides which page shows. */
export class PageStrip {
  /** The deck's distance between two pages, in points. */
  static deckGap = 32;
  /** How far the visible window reaches past the page on every side, so a held (×1.06) or lifted (×1.1) tile at the edge is not clipped; half the page gap, so the neighbouring page still does not show. */
  static overscan = 16;
  /** What a drag past the first or the last page is divided by. */
  static rubberBandDivisor = 3;

  /** @param {number} pageLength @param {number} [gap] */
  constructor(pageLength, gap = PageStrip.deckGap) {
    /** The length of one page along the strip. */
    this.pageLength = pageLength;
    /** Points between two pages. */
    this.gap = gap;
  }

  /** The strip's offset that shows `page`. @param {number} page */
  offsetShowing(page) {
    return 0 - page * (this.pageLength + this.gap) || 0; // `|| 0` so page 0 is 0, not -0
  }

  /** Where `page` starts along the strip. @param {number} page */
  startOfPage(page) {
    return page * (this.pageLength + this.gap);
  }

  /**
   * A finger's translation as the strip follows it: one to one, except past
   * the first or the last page, where it follows a third of the way.
   * @param {number} translation @param {number} page @param {number} pageCount
   */
  follow(translation, page, pageCount) {
    const pullsBeforeFirst = page <= 0 && translation > 0;
    const pullsAfterLast = page >= pageCount - 1 && translation < 0;
    return pullsBeforeFirst || pullsAfterLast ? translation / PageStrip.rubberBandDivisor : translation;
  }

  /**
   * The visible window for a page of `size`: the page grown by `overscan` on every side.
   * @param {{width:number,height:number}} size
   */
  static mask(size) {
    const o = PageStrip.overscan;
    return { x: -o, y: -o, width: size.width + 2 * o, height: size.height + 2 * o };
  }
}
