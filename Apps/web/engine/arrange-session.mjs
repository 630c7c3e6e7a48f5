// The device's arrange session for one grid: a port of ArrangeSession.swift,
// ArrangeSession+Signals.swift, ArrangeScene.swift and ArrangeTypes.swift.
// Tap to run, hold for settings, hold and drag to move (arrange mode with its
// wiggle), edge dwell paging, page swipes. Touches (in the grid's coordinate
// space), the clock and app events go in; actions come out; `scene` says
// what to draw. Pure: no DOM, no timers — time comes in.
import { VirtualTime, LengthThreshold } from './time.mjs';
import { EdgeDwellPager } from './edge-dwell.mjs';
import { HoldHintPlacement } from './hold-hint.mjs';
import { PageStrip } from './page-strip.mjs';
import { Wiggle } from './wiggle.mjs';
import { SwipePager, FlipRule } from './swipe-pager.mjs';
import { buttonGesture, swipeOnlyGesture, signals as touchSignals, TouchNumbers } from './arrange-touch.mjs';
import { DeckGesturesError } from './gestures-error.mjs';

export { DeckGesturesError };

/** `page/index`, as the host's messages write a slot (and the key of `scene.filled`). @param {{page:number,index:number}} slot */
export const slotKey = (slot) => `${slot.page}/${slot.index}`;
const sameSlot = (a, b) => (a === null || b === null ? a === b : a.page === b.page && a.index === b.index);
const compareSlots = (a, b) => a.page - b.page || a.index - b.index;

/** The hint shown when a button is held. */
export class HoldHint {
  /** @param {boolean} canMove @param {HoldHintPlacement} placement */
  constructor(canMove, placement) {
    /** Whether dragging moves the button: the host speaks level 7+ (a touch is held once, before it could have lifted). */
    this.canMove = canMove;
    /** Where the bubble goes. */
    this.placement = placement;
    Object.freeze(this);
  }

  /** The bubble's words (the app shows its own translation of them). */
  get text() { return this.canMove ? 'release: settings, drag: move' : 'release: settings'; }
}

/** Everything a view needs to draw the deck at one moment, derived from the session's state. */
export class ArrangeScene {
  /** @param {object} fields */
  constructor(fields) {
    /** The visible page. */ this.page = fields.page;
    /** Pages in the deck. */ this.pageCount = fields.pageCount;
    /** The page strip's one offset (x): resting offset plus a swipe's translation, rubber-banded. */ this.stripOffset = fields.stripOffset;
    /** True while the strip follows a finger (set it without animation); false: animate to `stripOffset`. */ this.stripFollowsFinger = fields.stripFollowsFinger;
    /** Arrange mode (Done shows, tiles wiggle). */ this.arranging = fields.arranging;
    /** The held button ({page,index}, drawn at heldScale) until it lifts or the touch ends, or null. */ this.held = fields.held;
    /** The hint bubble while a button is held and not dragged, or null. */ this.hint = fields.hint;
    /** The lifted tile {source, center:{x,y}, scale} (drawn over the grid under the finger), or null. */ this.lifted = fields.lifted;
    /** The slot the lifted button would land on (outlined), or null. */ this.target = fields.target;
    /** The slots holding a button, as `page/index` keys. @type {ReadonlySet<string>} */ this.filled = fields.filled;
    Object.freeze(this);
  }

  /** Whether `slot` holds a button. @param {{page:number,index:number}} slot */
  isFilled(slot) { return this.filled.has(slotKey(slot)); }

  /** Whether the tile in `slot` wiggles: in arrange mode, a button, not the lifted one. */
  wiggles(slot) {
    return this.arranging && this.isFilled(slot) && !(this.lifted !== null && sameSlot(slot, this.lifted.source));
  }

  /** The tile's tilt in degrees at `time` (zero when it does not wiggle, or with reduce motion). */
  rotation(slot, time, reduceMotion) {
    return this.wiggles(slot) ? Wiggle.angle(time, slot.index, reduceMotion) : 0;
  }

  /** The tile's scale in the grid (the lifted tile is drawn separately). */
  scale(slot) {
    return this.held !== null && sameSlot(slot, this.held) ? ArrangeSession.heldScale : 1;
  }
}

/**
 * The arrange session, as a swift-nio style state machine: `handle(event)`
 * returns the actions the app performs, in order, each {time, action}:
 *   {kind:'hold', slot, hint: HoldHint}   show the hint (and a haptic tick)
 *   {kind:'lift', slot}                   the held button follows the finger
 *   {kind:'target', slot|null}            where it would land (null: goes back)
 *   {kind:'page', page}                   the visible page changed (swipe or dwell)
 *   {kind:'move', from, to}               dropped on another slot: apply and send
 *   {kind:'back', slot}                   went back to its slot; nothing is sent
 *   {kind:'settings', slot}               open the button's settings
 *   {kind:'run', slot}                    run the button on the host
 *   {kind:'arrange', on}                  arrange mode turned on or off
 * Slots are {page, index}. Each touch gets its own recognizer, built when it
 * begins, so the hold time in force when a touch began stays for that touch.
 */
export class ArrangeSession {
  /** Hold time on a button in normal mode, in seconds. */
  static holdDuration = 0.45;
  /** Hold time in arrange mode, in seconds: a button moves almost at once. */
  static arrangeHoldDuration = 0.01;
  /** Moving this far before the hold time makes the hold fail, in points. */
  static holdSlop = TouchNumbers.holdSlop;
  /** After the hold, the drag lifts the button at this distance from where the drag part began, in points. */
  static liftDistance = 10;
  /** A page swipe starts at this distance: more than the hold's slop, so on a button it wins only after the hold failed. */
  static swipeDistance = TouchNumbers.swipeDistance;
  /** The first protocol level whose hosts take `moveButton`. */
  static movingProtocolLevel = 7;
  /** How much a held button grows. */
  static heldScale = 1.06;
  /** How much a lifted button grows. */
  static liftedScale = 1.1;
  /** The hint bubble's size when the app does not give its own. */
  static defaultHintSize = Object.freeze({ width: 220, height: 36 });
  /**
   * Trap: the platform may lose a release (the element that took the touch
   * left the page, a system gesture took it): after a `released` app event,
   * the session waits this long for the real `up` or `cancel`, then ends the
   * touch as cancelled — a guessed release never moves, runs or opens anything.
   */
  static releaseGuard = 0.05;

  /**
   * A session on `grid`, either from `layout` ({slotsPerPage, pages:[{buttons}]},
   * its slots per page must match the grid's) or from `pageCount` and `filled`
   * (an iterable of {page,index}).
   * @param {{grid:import('./grid.mjs').DeckGrid, layout?:object, pageCount?:number, filled?:Iterable<{page:number,index:number}>, page?:number, arranging?:boolean, protocolLevel:number, hintSize?:{width:number,height:number}}} options
   * @throws {DeckGesturesError}
   */
  constructor({ grid, layout, pageCount, filled, page = 0, arranging = false, protocolLevel, hintSize = ArrangeSession.defaultHintSize }) {
    if (layout !== undefined) {
      if (layout.slotsPerPage !== grid.slotsPerPage) {
        throw new DeckGesturesError('invalidSession', `the layout has ${layout.slotsPerPage} slots per page but the grid ${grid.slotsPerPage}`);
      }
      pageCount = layout.pages.length;
      filled = filledSlots(layout);
      page = Math.min(page, pageCount - 1);
    }
    if (!(pageCount >= 1)) throw new DeckGesturesError('invalidSession', `a deck has at least one page, not ${pageCount}`);
    if (!(page >= 0 && page < pageCount)) {
      throw new DeckGesturesError('invalidSession', `page ${page} does not exist (the deck has pages 0 to ${pageCount - 1})`);
    }
    const slots = [...(filled ?? [])].sort(compareSlots);
    const wrong = slots.find((s) => !(s.page >= 0 && s.page < pageCount && s.index >= 0 && s.index < grid.slotsPerPage));
    if (wrong) {
      throw new DeckGesturesError('invalidSession', `filled slot ${slotKey(wrong)} is outside ${pageCount} pages of ${grid.slotsPerPage} slots`);
    }
    /** The grid, in its own coordinate space. */
    this.grid = grid;
    /** The host's protocol level; below 7 a hold offers settings only. */
    this.protocolLevel = protocolLevel;
    /** The hold-hint bubble's size, for its placement. */
    this.hintSize = hintSize;
    /** @private @type {Set<string>} */
    this.filledKeys = new Set(slots.map(slotKey));
    /** Whether arrange mode is on. */
    this.arranging = arranging;
    /** @private */
    this.pager = new SwipePager({ axis: 'horizontal', pageLength: grid.size.width, gap: PageStrip.deckGap, pageCount, page, rule: FlipRule.deck });
    /** @private */ this.dwell = new EdgeDwellPager();
    /** @private @type {number|null} */ this.dwellDeadline = null;
    /** @private @type {number|null} */ this.releaseDeadline = null;
    /** @private */ this.touch = null;
    /** @private */ this.now = -Infinity;
  }

  /** The visible page. */
  get page() { return this.pager.page; }
  /** Pages in the deck. */
  get pageCount() { return this.pager.pageCount; }
  /** The slots holding a button, as `page/index` keys. @returns {ReadonlySet<string>} */
  get filled() { return this.filledKeys; }

  /** The next instant the session needs the clock (a hold, a tap timing out, an edge dwell flip, the release guard): wake it then with a `tick`. */
  get deadline() {
    const all = [this.touch?.gesture.tracker.deadline ?? null, this.dwellDeadline, this.releaseDeadline].filter((d) => d !== null);
    return all.length === 0 ? null : Math.min(...all);
  }

  /**
   * Replaces what the session knows of the layout (the host's, or the
   * device's optimistic copy). The visible page stays when it still exists.
   * @param {{pages:{buttons:unknown[]}[]}} layout
   */
  show(layout) {
    this.filledKeys = new Set(filledSlots(layout).map(slotKey));
    this.pager.setPageCount(layout.pages.length);
  }

  /**
   * Feeds one event; every deadline at or before its time fires first, at its own instant.
   * @param {{kind:'touch', touch:{phase:'down'|'move'|'up'|'cancel', x?:number, y?:number, time:number}}
   *   | {kind:'tick', time:number}
   *   | {kind:'app', event:'done'|'hostLocked'|'disconnected'|'background'|'released', time:number}} event
   * @returns {{time:number, action:object}[]}
   */
  handle(event) {
    const eventTime = event.kind === 'touch' ? event.touch.time : event.time;
    if (typeof eventTime !== 'number' || Number.isNaN(eventTime)) throw new TypeError('an event needs a numeric time');
    const time = Math.max(eventTime, this.now);
    const out = this.advance(time);
    switch (event.kind) {
      case 'touch': {
        const { phase, x = 0, y = 0 } = event.touch;
        out.push(...this.receiveTouch({ phase, x, y, time }));
        break;
      }
      case 'tick': break;
      case 'app': out.push(...this.receiveApp(event.event, time)); break;
      default: throw new TypeError(`an event's kind is touch, tick or app, not ${JSON.stringify(event.kind)}`);
    }
    out.push(...this.advance(time));
    return out;
  }

  /** @private Fires every deadline up to `time`, earliest first, each at its instant. */
  advance(time) {
    const out = [];
    for (let due = this.deadline; due !== null && VirtualTime.isDue(due, time); due = this.deadline) {
      const before = [this.touch?.gesture.tracker.deadline ?? null, this.dwellDeadline, this.releaseDeadline];
      if (this.touch !== null && this.touch.gesture.tracker.deadline === due) {
        out.push(...this.apply(touchSignals(this.touch.gesture, this.touch.gesture.tracker.advance(due))));
      } else if (this.dwellDeadline === due) {
        out.push(...this.fireDwell(due));
      } else {
        out.push(...this.fireReleaseGuard(due));
      }
      // Nothing moved on: stop rather than spin.
      const after = [this.touch?.gesture.tracker.deadline ?? null, this.dwellDeadline, this.releaseDeadline];
      if (before.every((value, i) => value === after[i])) break;
    }
    this.now = Math.max(this.now, time);
    return out;
  }

  /** @private */
  receiveTouch(touch) {
    if (this.touch === null) {
      // A move, lift or cancel without a touch in progress is noise.
      if (touch.phase !== 'down') return [];
      this.touch = this.beginTouch({ x: touch.x, y: touch.y });
    }
    const current = this.touch;
    return this.apply(touchSignals(current.gesture, current.gesture.tracker.receive(touch)));
  }

  /** @private */
  beginTouch(location) {
    const under = this.slotAt(location);
    const source = under !== null && this.filledKeys.has(slotKey(under)) ? under : null;
    const hold = this.arranging ? ArrangeSession.arrangeHoldDuration : ArrangeSession.holdDuration;
    return {
      gesture: source === null ? swipeOnlyGesture() : buttonGesture(hold),
      /** The button it began on (null: an empty slot, a gap, outside). */
      source,
      downLocation: location,
      /** Arrange mode when the touch began: decides its hold time and whether a tap opens settings. */
      arrangingAtStart: this.arranging,
      held: false,
      lifted: null,
      /** It lifted its button once: it lifts nothing again, also when the button went back (Done, the lock, a lost connection). */
      wasLifted: false,
    };
  }

  /** @private */
  receiveApp(event, time) {
    if (event === 'released') {
      // Only arms the guard; the real lift usually follows at once and wins.
      if (this.touch !== null && this.releaseDeadline === null) this.releaseDeadline = time + ArrangeSession.releaseGuard;
      return [];
    }
    if (!['done', 'hostLocked', 'disconnected', 'background'].includes(event)) {
      throw new TypeError(`an app event is done, hostLocked, disconnected, background or released, not ${JSON.stringify(event)}`);
    }
    const out = [];
    // GESTURES.md §2: only a lifted button goes back, and only its touch lifts
    // nothing again (`wasLifted`); a touch that is only held goes on as it
    // began ("a change of arrange mode … takes effect for the next touch"),
    // so a drag after it still lifts.
    if (event === 'background') {
      // The system takes the touch away: every gesture fails, and a lifted
      // button goes back through the failure.
      out.push(...this.receiveTouch({ phase: 'cancel', x: 0, y: 0, time }));
    } else if (this.touch !== null && this.touch.source !== null && this.touch.lifted !== null) {
      out.push(...this.goBack(this.touch.source, time));
    }
    if (this.arranging) {
      this.arranging = false;
      out.push({ time, action: { kind: 'arrange', on: false } });
    }
    return out;
  }

  /** @private The release guard ran out with the touch still open: it ends as cancelled. */
  fireReleaseGuard(time) {
    this.releaseDeadline = null;
    if (this.touch === null) return [];
    return this.receiveTouch({ phase: 'cancel', x: 0, y: 0, time });
  }

  /** @private Turns what the touch's gesture reported into the deck's actions. */
  apply(signals) {
    const out = [];
    for (const { time, signal } of signals) {
      if (this.touch === null) break;
      // A snapshot of the touch as this signal found it (Swift's `let current = touch`).
      const current = { ...this.touch };
      switch (signal.kind) {
        case 'held': {
          if (current.source === null) continue;
          const placement = HoldHintPlacement.place({ slot: current.source.index, grid: this.grid, bubbleSize: this.hintSize });
          if (placement === null) continue;
          this.touch.held = true;
          out.push({ time, action: { kind: 'hold', slot: current.source, hint: new HoldHint(this.canLift(current), placement) } });
          break;
        }
        case 'heldDrag': {
          const t = signal.drag.translation;
          if (current.lifted !== null) {
            out.push(...this.follow(signal.drag.location, time));
          } else if (this.canLift(current) && LengthThreshold.reaches(Math.hypot(t.width, t.height), ArrangeSession.liftDistance)) {
            out.push(...this.lift(signal.drag.location, time));
          }
          break;
        }
        case 'heldRelease':
          if (current.lifted !== null) {
            out.push(...this.drop(signal.drag?.location ?? current.lifted.location, time));
          } else if (!current.wasLifted && current.source !== null) {
            // Held and let go without moving it: the settings — the hold is
            // decided at the release. (A touch whose button went back opens nothing.)
            out.push({ time, action: { kind: 'settings', slot: current.source } });
          }
          break;
        case 'swipe':
          this.pager.follow(signal.drag);
          break;
        case 'swipeEnded': {
          const outcome = this.pager.release(signal.drag);
          if (outcome.kind === 'flipped') out.push({ time, action: { kind: 'page', page: outcome.page } });
          break;
        }
        case 'tap':
          if (current.source === null) continue;
          // A stray run while arranging would be a bug: taps open settings then.
          out.push({ time, action: { kind: current.arrangingAtStart ? 'settings' : 'run', slot: current.source } });
          break;
        default: // failed
          if (current.source !== null && current.lifted !== null) out.push(...this.goBack(current.source, time));
          if (this.pager.isFollowing) this.pager.settle();
      }
    }
    if (this.touch !== null && !this.touch.gesture.tracker.isTouching) {
      this.touch = null;
      this.releaseDeadline = null;
    }
    return out;
  }

  /** @private Whether the held button may lift: a host that takes moves, and a touch that has not lifted it before. */
  canLift(touch) {
    return this.protocolLevel >= ArrangeSession.movingProtocolLevel && !touch.wasLifted;
  }

  /** @private */
  lift(location, time) {
    const source = this.touch?.source ?? null;
    if (source === null) return [];
    const target = this.slotAt(location);
    this.touch.lifted = { location, target };
    this.touch.wasLifted = true;
    const out = [{ time, action: { kind: 'lift', slot: source } }];
    if (!this.arranging) {
      this.arranging = true;
      out.push({ time, action: { kind: 'arrange', on: true } });
    }
    out.push({ time, action: { kind: 'target', slot: target } });
    this.dwell.reset();
    return out.concat(this.dwellStep(location.x, time));
  }

  /** @private */
  follow(location, time) {
    this.touch.lifted = { ...this.touch.lifted, location };
    return this.retarget(time).concat(this.dwellStep(location.x, time));
  }

  /** @private Fires the edge dwell's deadline with the finger where it last was. */
  fireDwell(time) {
    const location = this.touch?.lifted?.location;
    if (location === undefined) {
      this.dwellDeadline = null;
      return [];
    }
    return this.dwellStep(location.x, time);
  }

  /** @private */
  dwellStep(x, time) {
    const step = this.dwell.update({ x, width: this.grid.size.width, now: time, page: this.page, pageCount: this.pageCount });
    this.dwellDeadline = step.deadline;
    if (step.newPage === null) return [];
    this.pager.show(step.newPage);
    return [{ time, action: { kind: 'page', page: step.newPage } }].concat(this.retarget(time));
  }

  /** @private Reports the lifted button's target when it changed (a move, or a page flip). */
  retarget(time) {
    const lifted = this.touch?.lifted ?? null;
    if (lifted === null) return [];
    const target = this.slotAt(lifted.location);
    if (sameSlot(target, lifted.target)) return [];
    this.touch.lifted = { ...lifted, target };
    return [{ time, action: { kind: 'target', slot: target } }];
  }

  /** @private */
  drop(location, time) {
    const source = this.touch?.source ?? null;
    if (source === null) return [];
    const target = this.slotAt(location);
    if (target === null || sameSlot(target, source)) return this.goBack(source, time);
    this.endLift();
    this.applyMove(source, target);
    return [{ time, action: { kind: 'move', from: source, to: target } }];
  }

  /** @private */
  goBack(source, time) {
    this.endLift();
    return [{ time, action: { kind: 'back', slot: source } }];
  }

  /** @private */
  endLift() {
    if (this.touch !== null) this.touch.lifted = null;
    this.dwell.reset();
    this.dwellDeadline = null;
  }

  /**
   * @private The move on the session's own picture of the layout, as
   * DeckLayout.move does it: into an empty slot, or a swap; then one trailing empty page.
   */
  applyMove(source, target) {
    if (!this.filledKeys.has(slotKey(target))) {
      this.filledKeys.delete(slotKey(source));
      this.filledKeys.add(slotKey(target));
    }
    let lastFilled = -1;
    for (const key of this.filledKeys) lastFilled = Math.max(lastFilled, Number(key.split('/')[0]));
    this.pager.setPageCount(lastFilled + 2);
  }

  /** @private The slot under a point of the visible page (null in gaps and outside). */
  slotAt(location) {
    const index = this.grid.slotAt(location);
    return index === null ? null : { page: this.page, index };
  }

  /** What to draw now. @returns {ArrangeScene} */
  get scene() {
    const touch = this.touch;
    let lifted = null;
    if (touch !== null && touch.source !== null && touch.lifted !== null) {
      const cell = this.grid.frameOfSlot(touch.source.index);
      if (cell !== null) {
        const finger = touch.lifted.location;
        lifted = Object.freeze({
          source: touch.source,
          // It keeps the offset from the finger it had when the touch began.
          center: { x: finger.x + (cell.x + cell.width / 2) - touch.downLocation.x, y: finger.y + (cell.y + cell.height / 2) - touch.downLocation.y },
          scale: ArrangeSession.liftedScale,
        });
      }
    }
    const held = touch !== null && touch.held && touch.lifted === null && !touch.wasLifted ? touch.source : null;
    let hint = null;
    if (held !== null) {
      const placement = HoldHintPlacement.place({ slot: held.index, grid: this.grid, bubbleSize: this.hintSize });
      if (placement !== null) hint = new HoldHint(this.canLift(touch), placement);
    }
    return new ArrangeScene({
      page: this.page, pageCount: this.pageCount, stripOffset: this.pager.offset, stripFollowsFinger: this.pager.isFollowing,
      arranging: this.arranging, held, hint, lifted, target: touch?.lifted?.target ?? null, filled: new Set(this.filledKeys),
    });
  }
}

/** The filled slots of a layout ({pages:[{buttons}]}; a slot is filled when it is not null). */
export function filledSlots(layout) {
  const out = [];
  layout.pages.forEach((page, pageNumber) => {
    page.buttons.forEach((button, index) => { if (button !== null && button !== undefined) out.push({ page: pageNumber, index }); });
  });
  return out;
}
