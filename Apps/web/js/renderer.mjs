// Draws the session's scene and the layout copy into the DOM. It decides
// nothing: what is held, lifted, targeted, where the strip is and how much a
// tile tilts all come from the engine's scene (WEB.md §6–§7).

import { faceOf, flashAt, iconURL } from './faces.mjs';
import { slotKey } from './layout-store.mjs';

/** The page strip's settle animation (s): the spring the iOS deck uses. */
const SETTLE_SECONDS = 0.3;
/** A dropped tile glides from the finger to its slot in this long (s). */
const DROP_SECONDS = 0.2;

export class Renderer {
  /**
   * @param {object} parts
   * @param {HTMLElement} parts.root the deck's root element (data-connection, data-page, …)
   * @param {HTMLElement} parts.grid `[data-deck-grid]`
   * @param {(key: string, values?: object) => string} parts.t
   */
  constructor({ root, grid, t }) {
    this.root = root;
    this.grid = grid;
    this.t = t;
    this.window = grid.querySelector('.window');
    this.strip = grid.querySelector('.strip');
    this.overlay = grid.querySelector('.overlay');
    this.dots = root.querySelector('.dots');
    /** @type {HTMLElement[]} page containers */ this.pages = [];
    /** @type {Map<string, HTMLElement>} tiles by slot key */ this.tiles = new Map();
    /** @type {HTMLElement | null} */ this.liftedTile = null;
    this.hint = null;
    this.size = { width: 0, height: 0 };
    this.columns = 3;
    this.slotsPerPage = 12;
  }

  /**
   * Lays out pages and tiles for a grid geometry and page count (on a new
   * layout shape or a rotation).
   * @param {{width: number, height: number, columns: number, slotsPerPage: number, gap: number,
   *          frame: (index: number) => {x: number, y: number, width: number, height: number}}} geometry
   * @param {number} pageCount
   */
  layOut(geometry, pageCount) {
    if (this.slotsPerPage !== geometry.slotsPerPage) {
      // Another page shape: every tile is made again.
      for (const tile of this.tiles.values()) tile.remove();
      this.tiles.clear();
      this.liftedTile = null;
      this.slotsPerPage = geometry.slotsPerPage;
    }
    this.geometry = geometry;
    this.size = { width: geometry.width, height: geometry.height };
    while (this.pages.length > pageCount) {
      const page = this.pages.pop();
      const p = this.pages.length;
      for (let i = 0; i < this.slotsPerPage; i++) {
        // Wherever the tile is: on its page, or lifted into the overlay.
        const tile = this.tiles.get(slotKey(p, i));
        if (tile === this.liftedTile) this.liftedTile = null;
        tile?.remove();
        this.tiles.delete(slotKey(p, i));
      }
      page.remove();
    }
    while (this.pages.length < pageCount) {
      const page = document.createElement('div');
      page.className = 'page';
      page.setAttribute('role', 'group');
      this.strip.append(page);
      this.pages.push(page);
    }
    this.pages.forEach((page, p) => {
      page.style.left = `${p * (geometry.width + geometry.gap)}px`;
      page.style.width = `${geometry.width}px`;
      page.style.height = `${geometry.height}px`;
      page.setAttribute('aria-label', this.t('pageOf', { page: p + 1, pages: pageCount }));
      for (let i = 0; i < geometry.slotsPerPage; i++) {
        const key = slotKey(p, i);
        let tile = this.tiles.get(key);
        if (!tile) {
          tile = document.createElement('button');
          tile.type = 'button';
          tile.className = 'tile';
          tile.dataset.slot = key;
          tile.dataset.state = 'idle';
          tile.innerHTML = '<span class="face" aria-hidden="true"></span><span class="label"></span>';
          this.tiles.set(key, tile);
          page.append(tile);
        }
        const frame = geometry.frame(i);
        tile.style.left = `${frame.x}px`;
        tile.style.top = `${frame.y}px`;
        tile.style.width = `${frame.width}px`;
        tile.style.height = `${frame.height}px`;
      }
    });
  }

  /**
   * Puts each slot's button of the layout copy on its tile.
   * @param {import('./layout-store.mjs').LayoutStore} store
   */
  fill(store) {
    const layout = store.layout;
    if (!layout) return;
    layout.pages.forEach((page, p) => page.buttons.forEach((_, i) => this.paintSlot(store, p, i)));
    // For `make bench` (page load → first layout drawn): the next frame shows it.
    if (!this.filledOnce) {
      this.filledOnce = true;
      requestAnimationFrame(() => performance.mark('deck:first-layout'));
    }
  }

  /**
   * Draws one slot's button with its live face and flash (a `buttonFace`
   * repaints only its own tile).
   * @param {import('./layout-store.mjs').LayoutStore} store
   * @param {number} page @param {number} index
   */
  paintSlot(store, page, index) {
    const tile = this.tiles.get(slotKey(page, index));
    if (!tile) return;
    const flash = store.flash(page, index);
    const now = performance.now() / 1000;
    const kind = flashAt(flash, now);
    this.paintTile(tile, store.button(page, index), store.face(page, index), page, index);
    const mark = kind ? `${kind} ${flash.until}` : null;
    if (tile.flashMark === mark) return;
    tile.flashMark = mark;
    tile.removeAttribute('data-flash');
    clearTimeout(tile.flashTimer);
    if (!kind) return;
    void tile.offsetWidth; // a new flash over one still showing starts its animation again
    tile.dataset.flash = kind;
    tile.flashTimer = setTimeout(() => this.paintSlot(store, page, index), (flash.until - now) * 1000 + 5);
  }

  paintTile(tile, button, live, page, index) {
    const face = faceOf(button, live);
    const signature = JSON.stringify([face, this.root.dataset.arranging]);
    if (tile.dataset.signature === signature) return;
    tile.dataset.signature = signature;
    const [faceEl, labelEl] = tile.children;
    faceEl.replaceChildren();
    if (face.empty) {
      tile.dataset.name = '';
      tile.dataset.shows = '';
      for (const name of ['faceState', 'faceImage']) delete tile.dataset[name];
      this.colour(tile, null, null);
      tile.classList.add('empty');
      tile.classList.remove('no-icon');
      const adding = this.root.dataset.arranging === 'true';
      labelEl.textContent = adding ? this.t('addButton') : '';
      tile.setAttribute('aria-label', adding
        ? `${this.t('addButton')} · ${this.t('slotEmpty', { page: page + 1, index: index + 1 })}`
        : this.t('emptySlot'));
      return;
    }
    tile.classList.remove('empty');
    tile.dataset.name = button.name;
    tile.dataset.shows = face.label;
    if (face.state) tile.dataset.faceState = face.state; else delete tile.dataset.faceState;
    if (face.image) tile.dataset.faceImage = face.image.hash; else delete tile.dataset.faceImage;
    this.colour(tile, face.color, face.background);
    labelEl.textContent = face.label;
    tile.setAttribute('aria-label', face.iconText ? `${face.iconText} ${face.label}` : face.label);
    const src = face.image ? face.image.url : face.iconName ? iconURL(face.iconName) : null;
    if (src) {
      const img = document.createElement('img');
      img.alt = '';
      img.draggable = false;
      img.src = src;
      if (face.image) img.className = 'image';
      // An image the host does not have: the name alone (WEB.md §5).
      img.onerror = () => { img.remove(); tile.classList.add('no-icon'); };
      faceEl.append(img);
    } else if (face.iconText) {
      faceEl.textContent = face.iconText;
    }
    tile.classList.toggle('no-icon', !src && !face.iconText);
  }

  /** A face's colours, as custom properties app.css draws with (a target slot's outline still wins). */
  colour(tile, text, back) {
    for (const [name, value] of [['--face-text', text], ['--face-back', back]]) {
      if (value) tile.style.setProperty(name, value); else tile.style.removeProperty(name);
    }
  }

  /**
   * Sets the root's `data-page` and `data-pages` (WEB.md §7).
   * @param {number} page the visible page
   * @param {number} pageCount the pages of the deck
   */
  markPage(page, pageCount) {
    this.root.dataset.page = String(page);
    this.root.dataset.pages = String(pageCount);
  }

  /**
   * Draws one moment of the session's scene.
   * @param {any} scene the engine's ArrangeScene
   * @param {number} time seconds on the session's clock, for the wiggle
   * @param {boolean} reduceMotion
   * @param {{hint?: boolean}} [options] `hint: false` leaves the hint out (a hold button held down)
   */
  draw(scene, time, reduceMotion, { hint = true } = {}) {
    const root = this.root;
    this.markPage(scene.page, scene.pageCount);
    root.dataset.arranging = String(scene.arranging);
    this.strip.classList.toggle('follows', scene.stripFollowsFinger);
    this.strip.style.transitionDuration = `${reduceMotion ? SETTLE_SECONDS / 3 : SETTLE_SECONDS}s`;
    this.strip.style.transform = `translateX(${scene.stripOffset}px)`;
    this.pages.forEach((page, p) => page.toggleAttribute('inert', p !== scene.page));

    const liftedKey = scene.lifted ? slotKey(scene.lifted.source.page, scene.lifted.source.index) : null;
    const heldKey = scene.held ? slotKey(scene.held.page, scene.held.index) : null;
    const targetKey = scene.target ? slotKey(scene.target.page, scene.target.index) : null;
    this.placeLifted(liftedKey, scene.lifted);
    for (const [key, tile] of this.tiles) {
      const state = key === liftedKey ? 'lifted' : key === heldKey ? 'held' : key === targetKey ? 'target' : 'idle';
      if (tile.dataset.state !== state) tile.dataset.state = state;
      const slot = { page: Number(key.split('/')[0]), index: Number(key.split('/')[1]) };
      const wiggles = scene.wiggles(slot);
      tile.classList.toggle('wiggling', wiggles && !reduceMotion);
      tile.classList.toggle('arrange-border', wiggles && reduceMotion);
      const angle = scene.rotation(slot, time, reduceMotion);
      const scale = key === liftedKey ? scene.lifted.scale : scene.scale(slot);
      const transform = angle || scale !== 1 ? `rotate(${angle.toFixed(3)}deg) scale(${scale})` : 'none';
      if (tile.style.transform !== transform) tile.style.transform = transform;
    }
    this.drawHint(hint ? scene.hint : null);
    this.drawDots(scene.page, scene.pageCount);
  }

  /** The page dots under the grid. */
  drawDots(page, count) {
    if (!this.dots) return;
    while (this.dots.children.length > count) this.dots.lastChild.remove();
    while (this.dots.children.length < count) this.dots.append(document.createElement('span'));
    [...this.dots.children].forEach((dot, i) => dot.classList.toggle('on', i === page));
  }

  /** Moves the lifted tile into the overlay (over every page, not clipped) and under the finger. */
  placeLifted(key, lifted) {
    if (this.liftedTile && this.liftedTile.dataset.slot !== key) {
      this.returnTile(this.liftedTile);
      this.liftedTile = null;
    }
    if (!key) return;
    const tile = this.tiles.get(key);
    if (!tile) return;
    if (this.liftedTile !== tile) {
      this.liftedTile = tile;
      this.overlay.append(tile);
    }
    tile.style.translate = 'none';
    tile.style.left = `${lifted.center.x - tile.offsetWidth / 2}px`;
    tile.style.top = `${lifted.center.y - tile.offsetHeight / 2}px`;
  }

  /** Puts a tile back on its own page at its own cell. */
  returnTile(tile) {
    const [p, i] = tile.dataset.slot.split('/').map(Number);
    const frame = this.geometry.frame(i);
    tile.style.left = `${frame.x}px`;
    tile.style.top = `${frame.y}px`;
    this.pages[p]?.append(tile);
  }

  /**
   * Where a tile is now, in the grid's space (before a drop re-fills tiles).
   * @param {string} key
   */
  boxOf(key) {
    const tile = this.tiles.get(key);
    if (!tile) return null;
    const grid = this.grid.getBoundingClientRect();
    const box = tile.getBoundingClientRect();
    return { x: box.left - grid.left + box.width / 2, y: box.top - grid.top + box.height / 2 };
  }

  /**
   * Makes a tile glide from where a button was seen (`from`, a centre in the
   * grid's space) to its own cell, starting in this very frame — so a dropped
   * button never shows at its old place first.
   */
  glide(key, from) {
    const tile = this.tiles.get(key);
    const to = this.boxOf(key);
    if (!tile || !to || !from) return;
    tile.style.transition = 'none';
    tile.style.translate = `${from.x - to.x}px ${from.y - to.y}px`;
    tile.getBoundingClientRect(); // commit the start before the transition
    tile.style.transition = `translate ${DROP_SECONDS}s ease-out`;
    tile.style.translate = '0px 0px';
    tile.addEventListener('transitionend', () => { tile.style.transition = ''; }, { once: true });
  }

  drawHint(hint) {
    if (!hint) {
      if (this.hint) { this.hint.remove(); this.hint = null; }
      return;
    }
    if (!this.hint) {
      this.hint = document.createElement('div');
      this.hint.dataset.role = 'hint';
      this.hint.className = 'hint';
      this.hint.setAttribute('role', 'status');
      this.hint.innerHTML = '<span class="text"></span><span class="tail" aria-hidden="true"></span>';
      this.overlay.append(this.hint);
    }
    const { frame, edge } = hint.placement;
    const text = this.t(hint.canMove ? 'hintMove' : 'hintSettings');
    if (this.hint.firstChild.textContent !== text) this.hint.firstChild.textContent = text;
    this.hint.dataset.edge = edge;
    Object.assign(this.hint.style, {
      left: `${frame.x}px`, top: `${frame.y}px`, width: `${frame.width}px`, height: `${frame.height}px`,
    });
    this.hint.lastChild.style.left = `${hint.placement.tailX - frame.x}px`;
  }

  /** The size the hint bubble needs for its longest words (the session places it). */
  measureHint() {
    const probe = document.createElement('div');
    probe.className = 'hint measure';
    probe.innerHTML = `<span class="text">${this.t('hintMove')}</span>`;
    this.overlay.append(probe);
    const box = probe.getBoundingClientRect();
    probe.remove();
    return { width: Math.ceil(box.width), height: Math.ceil(box.height) };
  }
}
