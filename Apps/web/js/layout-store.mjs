// The app's knowledge of the host: its layout (through the engine's
// DeviceLayout, the optimistic copy), revision, lock, hold slots and the
// live faces (docs/faces.md). No DOM; the controller reads it, the connection feeds it.

import { FLASH_SECONDS, readFace } from './faces.mjs';

/** @typedef {{name: string, icon?: string, action: object}} Button */
/** @typedef {{slotsPerPage: number, pages: {buttons: (Button | null)[]}[]}} Layout */

/** `page/index`, the key of a slot in maps and in `data-slot`. */
export const slotKey = (page, index) => `${page}/${index}`;

export class LayoutStore {
  /**
   * @param {(json: Layout) => {layout: Layout, receive: Function, drop: Function}} makeCopy the engine's DeviceLayout of a host layout
   * @param {(json: Layout) => Layout} readLayout the engine's reading of a host layout
   */
  constructor(makeCopy, readLayout) {
    this.makeCopy = makeCopy;
    this.readLayout = readLayout;
    /** @type {any} */ this.copy = null;
    this.profile = '';
    this.revision = -1;
    this.locked = false;
    this.protocol = 0;
    /** @type {Set<string>} */ this.holdSlots = new Set();
    /** @type {Map<string, {title: string | null, state: string | null, image: object | null}>} live faces by slot key */
    this.faces = new Map();
    /** @type {Map<string, {kind: string, until: number}>} flashes by slot key */ this.flashes = new Map();
  }

  /** @returns {Layout | null} */
  get layout() { return this.copy ? this.copy.layout : null; }

  /** @returns {number} */
  get pageCount() { return this.layout ? this.layout.pages.length : 1; }

  /**
   * The button in a slot of the copy, or null.
   * @returns {Button | null}
   */
  button(page, index) {
    return this.layout?.pages[page]?.buttons[index] ?? null;
  }

  /**
   * Takes a `welcome` or `layout` message from the host: it replaces the
   * copy, whatever it says. A layout the engine cannot read is ignored.
   * @returns {boolean} whether it was taken
   */
  receiveHost(message) {
    try {
      if (this.copy) this.copy.receive(this.readLayout(message.layout));
      else this.copy = this.makeCopy(message.layout);
    } catch {
      return false;
    }
    if (typeof message.profile === 'string') this.profile = message.profile;
    if (Number.isInteger(message.revision)) this.revision = message.revision;
    if (typeof message.locked === 'boolean') this.locked = message.locked;
    if (Number.isInteger(message.protocol)) this.protocol = message.protocol;
    this.holdSlots = new Set((Array.isArray(message.holdSlots) ? message.holdSlots : [])
      .filter((pair) => Array.isArray(pair) && pair.length === 2)
      .map(([page, index]) => slotKey(page, index)));
    // Level 8: every non-default face (none listed: none); a level-7 host sends none and its titles stay as they came.
    if (Array.isArray(message.faces) || this.protocol >= 8) {
      this.faces.clear();
      for (const item of message.faces ?? []) this.setFace(item);
    }
    return true;
  }

  /** Whether a slot's button takes `down`/`up` presses (push to talk). */
  isHoldSlot(page, index) { return this.holdSlots.has(slotKey(page, index)); }

  /** A plugin's title for a slot (a level-7 `buttonState`; null goes back to the name). */
  setTitle(page, index, title) {
    const face = this.face(page, index);
    this.setFace({ page, index, ...face, title });
  }

  /**
   * A `buttonFace` (or a welcome's face): the slot's whole live face; a flash
   * in it shows from `now` for FLASH_SECONDS.
   * @param {any} message @param {number} [now] seconds
   * @returns {boolean} whether it named a slot
   */
  setFace(message, now = 0) {
    const face = readFace(message);
    if (!face) return false;
    const key = slotKey(message.page, message.index);
    if (face.title === null && face.state === null && face.image === null) this.faces.delete(key);
    else this.faces.set(key, face);
    if (message.flash === 'alert' || message.flash === 'ok') this.flashes.set(key, { kind: message.flash, until: now + FLASH_SECONDS });
    return true;
  }

  /** A slot's live face, or null when it is default. */
  face(page, index) { return this.faces.get(slotKey(page, index)) ?? null; }

  /** A slot's flash, shown or over (flashAt decides). */
  flash(page, index) { return this.flashes.get(slotKey(page, index)) ?? null; }

  /** @returns {string | null} */
  title(page, index) { return this.face(page, index)?.title ?? null; }

  /** The filled slots of the copy, as `[page, index]` pairs. */
  filledSlots() {
    const filled = [];
    this.layout?.pages.forEach((page, p) => page.buttons.forEach((b, i) => { if (b) filled.push([p, i]); }));
    return filled;
  }
}
