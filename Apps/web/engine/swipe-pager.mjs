// One page-swipe interaction for a strip of pages: a port of SwipePager.swift
// and PagerSession.swift. The deck's horizontal page swipe and a reels-style
// vertical card feed are both this.
//
// Trap: the strip keeps a single offset. While the finger drags it follows
// one to one (a third of the way past either end); at the release the same
// value is set to the resting offset of the page it settles on, and the view
// animates that one value — never a drag offset plus a separately settled
// offset, whose two animations summed do not land smoothly.
import { PageStrip } from './page-strip.mjs';
import { LengthThreshold } from './time.mjs';
import { DragRecognizer, CoordinateSpace } from './recognizers.mjs';
import { GestureTracker } from './tracker.mjs';

/** When a release flips: {kind:'predictedEnd'|'translation', fraction}. */
export const FlipRule = Object.freeze({
  /** The deck's page swipe: the predicted end translation beyond a third of a page. */
  deck: Object.freeze({ kind: 'predictedEnd', fraction: 1.0 / 3.0 }),
  /** A reels-style card feed: the finger's translation reaching 22 % of a page. */
  feed: Object.freeze({ kind: 'translation', fraction: 0.22 }),
});

/** A strip of pages following a finger along one axis. */
export class SwipePager {
  /**
   * A pager showing `page` of `pageCount` (clamped into range).
   * @param {{axis:'horizontal'|'vertical', pageLength:number, gap:number, pageCount:number, page?:number, rule:{kind:string, fraction:number}}} options
   */
  constructor({ axis, pageLength, gap, pageCount, page = 0, rule }) {
    this.axis = axis;
    this.rule = rule;
    this.strip = new PageStrip(pageLength, gap);
    this.pageCount = Math.max(1, pageCount);
    this.page = Math.min(Math.max(page, 0), Math.max(1, pageCount) - 1);
    /** The strip's offset along the axis: the one value the view applies. */
    this.offset = this.strip.offsetShowing(this.page);
    /** True while the offset follows a finger (draw without animation). */
    this.isFollowing = false;
  }

  /** The component of `size` along the axis. @param {{width:number,height:number}} size */
  along(size) { return this.axis === 'horizontal' ? size.width : size.height; }

  /** Follows a drag sample: the page's resting offset plus the translation, rubber-banded past either end. */
  follow(drag) {
    this.isFollowing = true;
    this.offset = this.strip.offsetShowing(this.page) + this.strip.follow(this.along(drag.translation), this.page, this.pageCount);
  }

  /**
   * Releases with the drag's last value: flips by the rule or settles back.
   * @returns {{kind:'flipped', page:number} | {kind:'settled'}}
   */
  release(drag) {
    const measure = this.rule.kind === 'predictedEnd' ? this.along(drag.predictedEndTranslation) : this.along(drag.translation);
    const threshold = this.rule.fraction * this.strip.pageLength;
    // The deck flips when the predicted end is *beyond* a third; the feed
    // when the finger moved *at least* its fraction (`translation <= -height * 0.22`).
    const flips = this.rule.kind === 'predictedEnd'
      ? (length) => LengthThreshold.exceeds(length, threshold)
      : (length) => LengthThreshold.reaches(length, threshold);
    let target = this.page;
    if (measure < 0 && flips(-measure)) target = this.page + 1;
    if (measure > 0 && flips(measure)) target = this.page - 1;
    if (target === this.page || target < 0 || target >= this.pageCount) {
      this.settle();
      return { kind: 'settled' };
    }
    this.show(target);
    return { kind: 'flipped', page: target };
  }

  /** The drag was cancelled: settle back on the current page. */
  settle() { this.show(this.page); }

  /** Shows `page` (clamped), animating there from wherever the offset is. @param {number} page */
  show(page) {
    this.page = Math.min(Math.max(page, 0), this.pageCount - 1);
    this.isFollowing = false;
    this.offset = this.strip.offsetShowing(this.page);
  }

  /** Changes the number of pages (a new layout), keeping the page in range. @param {number} count */
  setPageCount(count) {
    this.pageCount = Math.max(1, count);
    if (this.page >= this.pageCount || !this.isFollowing) this.show(this.page);
  }
}

/**
 * A swipe pager driven by touches: a drag of `minimumDistance` in a named
 * space that does not move with the pages (a `local` space would feed the
 * offset back into the drag and jitter). The whole interaction of a card feed.
 */
export class PagerSession {
  /** @param {{pager:SwipePager, minimumDistance?:number, origin?:{x:number,y:number}}} options */
  constructor({ pager, minimumDistance = 10, origin = { x: 0, y: 0 } }) {
    this.pager = pager;
    this.tracker = new GestureTracker(new DragRecognizer({ minimumDistance, coordinateSpace: CoordinateSpace.named(origin) }));
  }

  /**
   * Feeds one touch; returns what to draw, each with its time:
   * {time, output: {kind:'offset'|'settle', offset} | {kind:'page', page}}.
   */
  handle(touch) {
    const out = [];
    for (const update of this.tracker.receive(touch)) {
      if (update.kind === 'changed') {
        this.pager.follow(update.value);
        out.push({ time: update.time, output: { kind: 'offset', offset: this.pager.offset } });
      } else if (update.kind === 'ended') {
        const outcome = this.pager.release(update.value);
        if (outcome.kind === 'flipped') out.push({ time: update.time, output: { kind: 'page', page: outcome.page } });
        out.push({ time: update.time, output: { kind: 'settle', offset: this.pager.offset } });
      } else {
        // A drag that never started has nothing to settle.
        if (!this.pager.isFollowing) continue;
        this.pager.settle();
        out.push({ time: update.time, output: { kind: 'settle', offset: this.pager.offset } });
      }
    }
    return out;
  }
}
