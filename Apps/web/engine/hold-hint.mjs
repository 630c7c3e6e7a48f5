// Where the hold-hint bubble goes: a port of Modules/DeckGeometry/HoldHintPlacement.swift.
// Drawn in a layer over the whole grid rather than inside the tile, so a
// neighbouring row drawn later cannot cover it; hence it needs its own frame.

/** The bubble's place for a held button, in the grid's coordinate space. */
export class HoldHintPlacement {
  /** Points between the button's cell and the bubble (room for the tail). */
  static defaultGap = 8;
  /** How close the tail may come to the bubble's side ends (its rounded corners). */
  static tailInset = 12;

  /**
   * Places a bubble of `bubbleSize` for the button in `slot`, or returns null
   * when the page has no such slot.
   * @param {{slot:number, grid:import('./grid.mjs').DeckGrid, bubbleSize:{width:number,height:number}, gap?:number}} options
   * @returns {HoldHintPlacement|null}
   */
  static place({ slot, grid, bubbleSize, gap = HoldHintPlacement.defaultGap }) {
    const cell = grid.frameOfSlot(slot);
    if (cell === null) return null;
    return new HoldHintPlacement(cell, grid, bubbleSize, gap, grid.rowOfSlot(slot) === 0 ? 'below' : 'above');
  }

  /** @private */
  constructor(cell, grid, bubbleSize, gap, edge) {
    const y = edge === 'above' ? cell.y - gap - bubbleSize.height : cell.y + cell.height + gap;
    const midX = cell.x + cell.width / 2;
    // Centred on the button, then pulled inside the grid; a bubble wider
    // than the grid is centred on the grid instead.
    const centred = midX - bubbleSize.width / 2;
    const x = bubbleSize.width >= grid.size.width
      ? (grid.size.width - bubbleSize.width) / 2
      : Math.min(Math.max(centred, 0), grid.size.width - bubbleSize.width);
    /** Above the button, or below it on the top row where there is no room above. @type {'above'|'below'} */
    this.edge = edge;
    /** The bubble's frame, pulled inside the grid at the left and right edges. */
    this.frame = { x, y, width: bubbleSize.width, height: bubbleSize.height };
    /** The tip of the tail: the button's horizontal centre, at the cell's top (above) or bottom (below) edge. */
    this.tailTip = { x: midX, y: edge === 'above' ? cell.y : cell.y + cell.height };
    Object.freeze(this);
  }

  /** Where the tail leaves the bubble along its edge: below the button's centre, clear of the rounded corners. */
  get tailX() {
    const inset = Math.min(HoldHintPlacement.tailInset, this.frame.width / 2);
    return Math.min(Math.max(this.tailTip.x, this.frame.x + inset), this.frame.x + this.frame.width - inset);
  }
}
