// One page of slots as cells: a port of Modules/DeckGeometry/DeckGrid.swift.
import { DeckConstants } from './constants.mjs';
import { swiftDescription as swiftDouble } from './swift-number.mjs';

/** A grid that cannot be laid out; `message` is a sentence a person can act on. */
export class DeckGeometryError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'DeckGeometryError';
  }
}


/**
 * One page of slots laid out as cells in rows and columns, in the grid's own
 * coordinate space: (0, 0) is the top-left corner of the visible page. Points
 * in the gaps between cells, and outside the grid, belong to no slot.
 */
export class DeckGrid {
  /** The default distance between two cells, in points. */
  static defaultSpacing = 14;

  /**
   * Makes a grid, refusing numbers that leave no drawable cell.
   * @param {{size:{width:number,height:number}, columns:number, slotsPerPage?:number, spacing?:number}} options
   * @throws {DeckGeometryError}
   */
  constructor({ size, columns, slotsPerPage = DeckConstants.defaultSlotsPerPage, spacing = DeckGrid.defaultSpacing }) {
    const max = DeckConstants.maximumSlotsPerPage;
    if (!(Number.isInteger(slotsPerPage) && slotsPerPage >= 1 && slotsPerPage <= max)) {
      throw new DeckGeometryError(`a page holds 1 to ${max} slots, not ${slotsPerPage}`);
    }
    if (!(Number.isInteger(columns) && columns >= 1 && columns <= slotsPerPage)) {
      throw new DeckGeometryError(`columns must be between 1 and the ${slotsPerPage} slots of a page, not ${columns}`);
    }
    if (!(spacing >= 0 && Number.isFinite(spacing))) {
      throw new DeckGeometryError(`cell spacing must be zero or more points, not ${swiftDouble(spacing)}`);
    }
    /** @type {{width:number,height:number}} */
    this.size = { width: size.width, height: size.height };
    /** Cells per row: 3 on a phone, 4 on a tablet. */
    this.columns = columns;
    /** Slots on a page. */
    this.slotsPerPage = slotsPerPage;
    /** Points between two neighbouring cells. */
    this.spacing = spacing;
    const cell = this.cellSize;
    if (!(Number.isFinite(size.width) && Number.isFinite(size.height) && cell.width > 0 && cell.height > 0)) {
      throw new DeckGeometryError(`a ${swiftDouble(size.width)} × ${swiftDouble(size.height)} grid is too small for ${columns} columns `
        + `and ${this.rows} rows ${swiftDouble(spacing)} points apart`);
    }
    Object.freeze(this);
  }

  /** Rows on a page (the last one may be partly used). */
  get rows() { return Math.trunc((this.slotsPerPage + this.columns - 1) / this.columns); }

  /** The size of one cell. */
  get cellSize() {
    return {
      width: (this.size.width - this.spacing * (this.columns - 1)) / this.columns,
      height: (this.size.height - this.spacing * (this.rows - 1)) / this.rows,
    };
  }

  /** The row of a slot (0 at the top). @param {number} slot */
  rowOfSlot(slot) { return Math.trunc(slot / this.columns); }

  /** The column of a slot (0 at the left). @param {number} slot */
  columnOfSlot(slot) { return slot % this.columns; }

  /**
   * The cell of `slot`, or null when the page has no such slot. Its left and
   * top edges belong to it, its right and bottom edges do not.
   * @param {number} slot @returns {{x:number,y:number,width:number,height:number}|null}
   */
  frameOfSlot(slot) {
    if (!(Number.isInteger(slot) && slot >= 0 && slot < this.slotsPerPage)) return null;
    const cell = this.cellSize;
    return {
      x: start(this.columnOfSlot(slot), cell.width, this.spacing),
      y: start(this.rowOfSlot(slot), cell.height, this.spacing),
      width: cell.width, height: cell.height,
    };
  }

  /**
   * The slot whose cell holds `point`, or null in a gap, outside the grid,
   * or on an unused cell of a partly used last row.
   * @param {{x:number,y:number}} point @returns {number|null}
   */
  slotAt(point) {
    const cell = this.cellSize;
    const column = cellHolding(point.x, cell.width, this.spacing, this.columns);
    const row = cellHolding(point.y, cell.height, this.spacing, this.rows);
    if (column === null || row === null) return null;
    const slot = row * this.columns + column;
    return slot < this.slotsPerPage ? slot : null;
  }
}

/** Where cell `number` starts along one axis: the one formula both the frame and the lookup use. */
function start(number, length, spacing) {
  return number * (length + spacing);
}

/**
 * The cell along one axis whose half-open span [start, start + length) holds
 * `value`. Trap: `value / stride` can round across a cell edge, so the
 * division only guesses and the neighbours are checked with the exact test.
 */
function cellHolding(value, length, spacing, count) {
  if (!(Number.isFinite(value) && value >= 0)) return null;
  const guess = Math.trunc(Math.min(Math.floor(value / (length + spacing)), count));
  for (const candidate of [guess, guess - 1, guess + 1]) {
    if (candidate < 0 || candidate >= count) continue;
    const begin = start(candidate, length, spacing);
    if (value >= begin && value < begin + length) return candidate;
  }
  return null;
}
