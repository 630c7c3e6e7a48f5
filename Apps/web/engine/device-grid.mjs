// The grid by orientation (WEB.md §6, GESTURES.md §2): 3 columns × 4 rows when
// the grid is taller than wide, 4 × 3 otherwise, re-laid on rotation.
import { DeckGrid } from './grid.mjs';

/** The deck's grid for the space it is given. */
export const DeviceGrid = Object.freeze({
  /** Columns on a phone held upright. */
  portraitColumns: 3,
  /** Columns on a tablet, or a phone on its side. */
  landscapeColumns: 4,
  /**
   * The grid for a page of `size` points (a square counts as landscape).
   * @param {{width:number,height:number}} size @param {number} [slotsPerPage]
   * @returns {DeckGrid} @throws {import('./grid.mjs').DeckGeometryError}
   */
  forSize(size, slotsPerPage = 12) {
    return new DeckGrid({ size, columns: DeviceGrid.columnsFor(size, slotsPerPage), slotsPerPage });
  },
  /**
   * The columns of a page of `size` points (a square counts as landscape), never more than its slots.
   * @param {{width:number,height:number}} size @param {number} [slotsPerPage]
   */
  columnsFor(size, slotsPerPage = 12) {
    const wanted = size.height > size.width ? DeviceGrid.portraitColumns : DeviceGrid.landscapeColumns;
    return Math.min(wanted, slotsPerPage);
  },
});
