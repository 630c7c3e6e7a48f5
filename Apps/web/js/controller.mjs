// Feeds the grid's touches, the clock and the app's events to the engine's
// arrange session, performs what comes out (presses, settings, moves on the
// layout copy) and has the renderer draw the session's scene. All gesture
// decisions are the engine's; this file only wires them.

import {
  actionOf, appEvent, GRID_SPACING, gridColumns, makeGrid, PAGE_GAP, tickEvent, touchEvent,
} from './engine-api.mjs';
import { EarlyTouches } from './early-touches.mjs';
import { slotKey } from './layout-store.mjs';

/** A click this soon after a touch ended is that touch's own click, already handled (ms). */
const TOUCH_CLICK_WINDOW = 800;
/** Tiles are at most this much taller (or wider) than wide (or tall): square-ish buttons, as on the iOS deck. */
const MAX_CELL_ASPECT = 1.2;
/** Room under the grid for the page dots (px). */
const DOTS_ROOM = 42;
/** The vibration when a hold is reached, where the browser can (ms). */
const HOLD_VIBRATION = 12;

const same = (a, b) => a && b && a.page === b.page && a.index === b.index;

export class Controller {
  /**
   * @param {object} parts
   * @param {HTMLElement} parts.root
   * @param {HTMLElement} parts.grid `[data-deck-grid]`
   * @param {HTMLElement} parts.stage the grid's container, whose size the grid fits
   * @param {import('./layout-store.mjs').LayoutStore} parts.store
   * @param {import('./renderer.mjs').Renderer} parts.renderer
   * @param {{request: (r: object) => Promise<object>, online: boolean}} parts.connection
   * @param {() => Promise<{makeSession: Function, sheet: object, refusal: Function}>} parts.loadLater
   *   the session's maker, the settings sheet, words for an error reply: after the first draw
   * @param {(text: string) => void} parts.announce the live region
   * @param {MediaQueryList} parts.reduceMotion
   */
  constructor({ root, grid, stage, store, renderer, connection, loadLater, announce, reduceMotion }) {
    this.root = root;
    this.grid = grid;
    this.stage = stage;
    this.store = store;
    this.renderer = renderer;
    this.connection = connection;
    this.loadLater = loadLater;
    this.sheet = { isOpen: false }; // until the real one comes, with the session
    this.refusal = null;
    this.announce = announce;
    this.reduceMotion = reduceMotion;
    this.session = null;
    this.gridModel = null;
    this.page = 0;
    this.pointerId = null;
    this.touch = null; // {slot, holdSlot, holdDown, outputs: Set, pointerId, refused?}
    this.openingTouch = null; // {pointerId, at}: the touch that opened the sheet, whose own click is still to come
    this.lastTouchEnd = -Infinity;
    this.timer = null;
    this.frame = 0;
    this.liftedCenter = null;
    this.hintSize = null;
    /** Makes the arrange session; null until the later parts are in (the first layout is drawn without them). */
    this.makeSession = null;
    /** Touches on the first layout, before the session (they are replayed into it). */
    this.early = new EarlyTouches();
    /** The later parts on their way (null once in, or after a failed load). */
    this.sessionLoad = null;
    this.drawn = false;
    this.listen();
  }

  /** Loads the later parts in the task after the frame that shows the first layout. */
  firstDrawn() {
    if (this.drawn) return;
    this.drawn = true;
    requestAnimationFrame(() => setTimeout(() => { if (!this.makeSession && !this.sessionLoad) this.loadTheSession(); }));
  }

  /**
   * Fetches the arrange session's modules. They come from the host: one that
   * stops or is killed while they load fails the load, so a failed load is
   * tried again when the connection is back (`layoutChanged`), not left
   * until the page is reloaded.
   */
  loadTheSession() {
    this.sessionLoad = this.loadLater().then(({ makeSession, sheet, refusal }) => {
      this.sessionLoad = null;
      this.sheet = sheet;
      this.refusal = refusal;
      this.makeSession = makeSession;
      this.rebuild();
    }, (error) => {
      this.sessionLoad = null;
      console.error(error);
      // Online, the deck is drawn but cannot take a touch: say so rather than ignore every tap.
      // Offline, a touch is refused as offline (pointer) and the load is tried again on reconnecting.
      if (this.connection.online) this.announce(this.renderer.t('loadFailed'));
    });
  }

  get now() { return performance.now() / 1000; }

  listen() {
    const grid = this.grid;
    grid.addEventListener('pointerdown', (e) => this.pointer('down', e));
    grid.addEventListener('pointermove', (e) => this.pointer('move', e));
    grid.addEventListener('pointerup', (e) => this.pointer('up', e));
    grid.addEventListener('pointercancel', (e) => this.pointer('cancel', e));
    // A release that never reaches the grid: the engine's 0.05 s guard ends the touch unless the real one comes.
    grid.addEventListener('lostpointercapture', (e) => this.pointer('released', e));
    document.addEventListener('pointerup', (e) => this.pointer('released', e), true);
    grid.addEventListener('click', (e) => this.click(e));
    document.addEventListener('click', (e) => this.swallowOpeningClick(e), true);
    grid.addEventListener('keydown', (e) => this.key(e));
    new ResizeObserver(() => this.fit()).observe(this.stage);
    this.reduceMotion.addEventListener('change', () => this.draw());
  }

  // --- the session's life -------------------------------------------------

  /** Fits the grid to the stage and (re)builds the session for its size. */
  fit() {
    const layout = this.store.layout;
    if (!layout) return;
    const box = this.stage.getBoundingClientRect();
    let width = Math.floor(box.width);
    let height = Math.floor(box.height) - DOTS_ROOM;
    if (width < 40 || height < 40) return;
    // The engine's columns and spacing, so the box fitted here is the grid it makes.
    const columns = gridColumns({ width, height }, layout.slotsPerPage);
    const rows = Math.ceil(layout.slotsPerPage / columns);
    const cell = (width - GRID_SPACING * (columns - 1)) / columns;
    height = Math.min(height, Math.floor(rows * cell * MAX_CELL_ASPECT + GRID_SPACING * (rows - 1)));
    const cellHeight = (height - GRID_SPACING * (rows - 1)) / rows;
    width = Math.min(width, Math.floor(columns * cellHeight * MAX_CELL_ASPECT + GRID_SPACING * (columns - 1)));
    const size = this.gridModel?.size;
    if (size && size.width === width && size.height === height && this.gridModel.slotsPerPage === layout.slotsPerPage) return;
    this.grid.style.width = `${width}px`;
    this.grid.style.height = `${height}px`;
    this.gridModel = makeGrid({ width, height }, layout.slotsPerPage);
    this.rebuild();
  }

  /** A new session for the grid and the copy (a rotation, a new layout shape, showPage). */
  rebuild() {
    const layout = this.store.layout;
    if (!layout || !this.gridModel) return;
    if (this.makeSession) {
      if (this.touch) this.feed(touchEvent('cancel', { x: 0, y: 0 }, this.now));
      const arranging = this.session ? this.session.scene.arranging : false;
      this.hintSize ??= this.renderer.measureHint();
      this.session = this.makeSession({ grid: this.gridModel, layout, page: this.page, arranging,
        protocolLevel: this.store.protocol, hintSize: this.hintSize });
    }
    // Without a session yet, this draws the copy as it stands: nothing can be held or lifted before one exists.
    const g = this.gridModel;
    this.renderer.layOut({ width: g.size.width, height: g.size.height, columns: g.columns, slotsPerPage: g.slotsPerPage,
      gap: PAGE_GAP, frame: (i) => g.frameOfSlot(i) }, layout.pages.length);
    this.renderer.fill(this.store);
    this.draw();
    this.firstDrawn();
    if (this.session) this.early.replay((kind, event) => this.pointer(kind, event));
  }

  /** The host's layout (or the copy) changed. */
  layoutChanged() {
    const layout = this.store.layout;
    // Connected again (or a new layout) after the session's modules failed to load: try again.
    if (this.drawn && !this.makeSession && !this.sessionLoad && this.connection.online) this.loadTheSession();
    if (!this.session || !this.gridModel || this.gridModel.slotsPerPage !== layout.slotsPerPage) {
      this.fit();
      // Before the session's modules are in, a new layout is drawn as it stands (fit may have drawn it already).
      if (!this.session) { this.rebuild(); return; }
    }
    this.session.show(layout);
    if (this.renderer.pages.length !== layout.pages.length) {
      const g = this.gridModel;
      this.renderer.layOut({ width: g.size.width, height: g.size.height, columns: g.columns,
        slotsPerPage: g.slotsPerPage, gap: PAGE_GAP, frame: (i) => g.frameOfSlot(i) }, layout.pages.length);
    }
    this.renderer.fill(this.store);
    this.draw();
  }

  /** `showPage` from the host: turn to it (after the touch that pressed, which has ended). */
  showPage(page) {
    if (!this.session || !Number.isInteger(page)) return;
    this.page = Math.max(0, Math.min(page, this.store.pageCount - 1));
    if (typeof this.session.showPage === 'function') this.session.showPage(this.page);
    else this.rebuild();
    this.draw();
  }

  /** Something the app learned: `done`, `hostLocked`, `disconnected`, `background`. */
  app(name) {
    if (name !== 'done') this.releaseHold();
    if (this.session) this.feed(appEvent(name, this.now));
    // A touch that held a tile when the lock comes ends, as one held while locked (a lifted one hostLocked sent back).
    if (name === 'hostLocked' && this.touch?.outputs.has('hold') && !this.touch.holdSlot) this.refuseHeldTouch();
  }

  /** Ends the live touch in the session (a cancel) and says the host is locked; its later events are dropped. */
  refuseHeldTouch() {
    if (!this.touch || this.touch.refused) return;
    this.touch.refused = true;
    this.feed(touchEvent('cancel', { x: 0, y: 0 }, this.now));
    this.announce(this.renderer.t('refusedLocked'));
  }

  // --- touches -----------------------------------------------------------

  point(event) {
    const box = this.grid.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  /** One pointer event: to the session, or kept until it exists (a touch on the first layout drawn). */
  pointer(kind, event) {
    if (!this.session) {
      if (!this.store.layout || this.sheet.isOpen) return;
      if (kind === 'down' && !this.connection.online) {
        // Offline, any press it became would be refused: refuse it now. Kept, it would be
        // replayed into a session that may come only once the host (which serves its modules)
        // is back, and a press made offline would be sent late.
        event.preventDefault();
        this.announce(this.renderer.t('refusedOffline'));
        return;
      }
      // Captured now: at the replay, the tile's implicit capture would be lost, read as a release.
      if (kind === 'down') this.capture(event.pointerId);
      this.early.keep(kind, event);
      return;
    }
    switch (kind) {
      case 'down': this.pointerDown(event); break;
      case 'move': this.pointerMove(event); break;
      case 'up': case 'cancel': this.pointerEnd(event, kind); break;
      default: this.released(event);
    }
  }

  pointerDown(event) {
    if (!this.session || this.sheet.isOpen) return;
    event.preventDefault();
    if (this.pointerId !== null && this.releaseArmed) {
      // The last touch's release never came; the engine's guard has ended (or ends) it.
      this.releaseHold();
      this.pointerId = null;
      this.touch = null;
    }
    if (this.pointerId !== null) {
      // A second finger: every live gesture fails (GESTURES.md §1).
      this.feed(touchEvent('cancel', this.point(event), event.timeStamp / 1000));
      return;
    }
    this.pointerId = event.pointerId;
    this.releaseArmed = false;
    this.capture(event.pointerId);
    const start = this.point(event);
    const index = this.gridModel.slotAt(start);
    const slot = index === null ? null : { page: this.session.scene.page, index };
    const scene = this.session.scene;
    const button = slot ? this.store.button(slot.page, slot.index) : null;
    const holdSlot = button && !scene.arranging && this.store.isHoldSlot(slot.page, slot.index) ? slot : null;
    this.touch = { slot, holdSlot, holdDown: false, outputs: new Set(), pointerId: event.pointerId };
    if (holdSlot) this.touch.holdDown = this.press(holdSlot, 'down');
    this.feed(touchEvent('down', start, event.timeStamp / 1000));
  }

  capture(pointerId) {
    try {
      this.grid.setPointerCapture?.(pointerId);
    } catch {
      // A touch kept from before the session (early-touches.mjs) whose finger has already lifted: nothing to capture.
    }
  }

  pointerMove(event) {
    if (event.pointerId !== this.pointerId || !this.touch || this.touch.refused) return;
    const samples = event.getCoalescedEvents?.() ?? [];
    for (const sample of samples.length ? samples : [event]) {
      this.feed(touchEvent('move', this.point(sample), sample.timeStamp / 1000), false);
    }
    this.draw();
  }

  pointerEnd(event, phase) {
    if (event.pointerId !== this.pointerId) return;
    this.pointerId = null;
    this.releaseArmed = false;
    const time = event.timeStamp / 1000;
    if (!this.touch?.refused) this.feed(touchEvent(phase, this.point(event), time));
    // Seed 004: a held plugin button whose touch ends or is taken away sends its `up` at once.
    this.releaseHold();
    this.lastTouchEnd = performance.now();
    this.lastTouch = this.touch;
    this.touch = null;
  }

  released(event) {
    if (event.pointerId !== this.pointerId) return;
    this.releaseArmed = true;
    this.feed(appEvent('released', event.timeStamp / 1000), false);
  }

  releaseHold() {
    const touch = this.touch;
    if (touch?.holdDown) {
      touch.holdDown = false;
      this.press(touch.holdSlot, 'up');
    }
  }

  /** Clicks the touch did not make: a screen reader's double-tap, the keyboard, "Add button". */
  click(event) {
    const tile = event.target.closest?.('[data-slot]');
    if (!tile || !this.session) return;
    const [page, index] = tile.dataset.slot.split('/').map(Number);
    const slot = { page, index };
    const fromTouch = performance.now() - this.lastTouchEnd < TOUCH_CLICK_WINDOW && event.detail !== 0;
    const button = this.store.button(page, index);
    const arranging = this.session.scene.arranging;
    if (fromTouch) {
      // The session took the touch; only a plain tap on an empty slot in arrange mode is left to the app.
      const t = this.lastTouch;
      if (!button && arranging && t && same(t.slot, slot) && t.outputs.size === 0) this.openSettings(slot);
      return;
    }
    if (!button) { if (arranging) this.openSettings(slot); return; }
    if (arranging) this.openSettings(slot);
    else if (this.store.isHoldSlot(page, index)) { if (this.press(slot, 'down')) this.press(slot, 'up'); }
    else this.press(slot, 'tap');
  }

  /** The keyboard's way to the settings (no hold): the context-menu key or Shift+F10. */
  key(event) {
    const tile = event.target.closest?.('[data-slot]');
    if (!tile || !(event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10'))) return;
    event.preventDefault();
    const [page, index] = tile.dataset.slot.split('/').map(Number);
    this.openSettings({ page, index });
  }

  // --- the session's outputs ----------------------------------------------

  /** Hands one event to the session and performs its outputs. */
  feed(event, redraw = true) {
    if (!this.session) return;
    const outputs = this.session.handle(event);
    for (const output of outputs) this.perform(actionOf(output));
    this.schedule();
    if (redraw) this.draw();
  }

  perform(action) {
    this.touch?.outputs.add(action.kind);
    switch (action.kind) {
      case 'hold':
        if (this.touch?.holdSlot) break;
        // WEB.md §6: while the host is locked a hold lifts nothing — no raised
        // tile, no hint, no settings on release. The touch ends here, before
        // anything is drawn, and the deck says why.
        if (this.store.locked) { this.refuseHeldTouch(); break; }
        navigator.vibrate?.(HOLD_VIBRATION);
        this.announce(this.renderer.t(action.hint?.canMove ? 'hintMove' : 'hintSettings'), { visible: false });
        break;
      case 'lift':
        // While the host is locked a hold lifts nothing: interrupt at once, before anything is drawn.
        if (this.store.locked || !this.connection.online) { this.feed(appEvent('hostLocked', this.now), false); break; }
        this.releaseHold();
        break;
      case 'move': this.drop(action.from, action.to, this.liftedCenter); break;
      case 'back':
        this.draw();
        this.renderer.glide(slotKey(action.slot.page, action.slot.index), this.liftedCenter);
        break;
      case 'settings': if (!this.touch?.holdSlot) this.openSettings(action.slot, this.touch); break;
      case 'run': if (!this.touch?.holdSlot) this.press(action.slot, 'tap'); break;
      case 'page':
        this.page = action.page;
        this.announce(this.renderer.t('pageOf', { page: action.page + 1, pages: this.store.pageCount }), { visible: false });
        break;
      case 'arrange': this.renderer.root.dataset.arranging = String(action.on); this.renderer.fill(this.store); break;
      default: break;
    }
  }

  /**
   * Applies a move to the copy at once (DeckLayout.move's rules, stale check
   * included), sends it, and draws the button gliding from where it was seen.
   * @returns {Promise<object>} the host's reply
   */
  drop(from, to, seenAt) {
    if (!this.connection.online || this.store.locked) {
      this.announce(this.renderer.t(this.store.locked ? 'refusedLocked' : 'refusedOffline'));
      return Promise.resolve({ type: 'error', code: this.store.locked ? 'locked' : 'offline', message: '' });
    }
    const fromKey = slotKey(from.page, from.index);
    const toKey = slotKey(to.page, to.index);
    const displacedAt = this.renderer.boxOf(toKey);
    let request;
    try {
      request = this.store.copy.drop(from, to);
    } catch (error) {
      this.announce(this.refusal({ type: 'error', code: 'stale', message: String(error.message ?? error) }));
      return Promise.resolve({ type: 'error', code: 'stale', message: String(error) });
    }
    if (!request) return Promise.resolve({ type: 'ok' });
    this.session?.show(this.store.layout);
    this.renderer.fill(this.store);
    this.draw();
    this.renderer.glide(toKey, seenAt ?? this.renderer.boxOf(fromKey));
    if (this.store.button(from.page, from.index)) this.renderer.glide(fromKey, displacedAt);
    const reply = this.connection.request({ type: 'moveButton', ...request });
    reply.then((answer) => { if (answer.type === 'error') this.announce(this.refusal(answer)); });
    return reply;
  }

  /**
   * Sends a press; refused on the spot while offline or locked (never sent late).
   * @returns {boolean} whether it was sent
   */
  press(slot, phase) {
    if (!this.connection.online || this.store.locked) {
      this.announce(this.renderer.t(this.store.locked ? 'refusedLocked' : 'refusedOffline'));
      return false;
    }
    const button = this.store.button(slot.page, slot.index);
    if (!button) return false;
    const request = { type: 'press', page: slot.page, index: slot.index, button };
    if (phase !== 'tap') request.phase = phase;
    this.connection.request(request).then((reply) => {
      if (reply.type === 'error') this.announce(this.renderer.t('pressFailed', { message: this.refusal(reply) }));
    });
    return true;
  }

  /**
   * Opens the settings sheet for a slot.
   * @param {{page:number,index:number}} slot
   * @param {{pointerId:number}|null} touch the touch whose release opened it, if one did
   */
  openSettings(slot, touch = null) {
    const layout = this.store.layout;
    const button = this.store.button(slot.page, slot.index);
    const targets = [];
    layout.pages.forEach((page, p) => page.buttons.forEach((b, i) => {
      if (p !== slot.page || i !== slot.index) targets.push({ page: p, index: i, button: b });
    }));
    this.sheet.open(slot, button, targets);
    // Trap: a tap's click follows its pointerup and is hit-tested where the finger was, which
    // is now the sheet that tap opened (Cancel, Remove): that click is the touch's, not the sheet's.
    this.openingTouch = touch ? { pointerId: touch.pointerId, at: performance.now() } : null;
  }

  /** Stops the click of the touch that opened the sheet before it reaches the sheet (capture phase). */
  swallowOpeningClick(event) {
    const opening = this.openingTouch;
    if (!opening) return;
    // A click naming its pointer is the opening touch's or not; one that names none (a browser
    // whose clicks are not pointer events) is the touch's when it came from a pointer, soon.
    const named = typeof event.pointerId === 'number' && event.pointerId !== -1;
    const ours = named ? event.pointerId === opening.pointerId
      : event.detail !== 0 && performance.now() - opening.at < TOUCH_CLICK_WINDOW;
    this.openingTouch = null;
    if (!ours) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  // --- time and drawing -------------------------------------------------

  /** Wakes the session at its next deadline (a hold, an edge dwell flip). */
  schedule() {
    clearTimeout(this.timer);
    const deadline = this.session?.deadline;
    if (deadline === null || deadline === undefined) return;
    const wait = Math.max(0, (deadline - this.now) * 1000);
    this.timer = setTimeout(() => this.feed(tickEvent(Math.max(deadline, this.now))), wait);
  }

  draw() {
    if (!this.session) {
      // Drawn before the session's modules are in: the page says its pages already (WEB.md §7).
      if (this.store.layout) this.renderer.markPage(this.page, this.store.pageCount);
      return;
    }
    const scene = this.session.scene;
    this.page = scene.page;
    if (scene.lifted) this.liftedCenter = { ...scene.lifted.center };
    // A hold button held down is talking, not offering its settings: no hint.
    this.renderer.draw(scene, this.now, this.reduceMotion.matches, { hint: !this.touch?.holdSlot });
    // The wiggle is computed from the time, so it stops dead when arrange mode ends.
    if (scene.arranging && !this.reduceMotion.matches && !this.frame) {
      this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
    }
  }
}
