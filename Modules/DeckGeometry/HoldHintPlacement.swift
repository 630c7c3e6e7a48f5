import Foundation

/// Where the hold-hint bubble ("release: settings, drag: move") goes for a
/// held button, in the grid's coordinate space.
///
/// Drawn in a layer over the whole grid rather than inside the button, so a
/// neighbouring row drawn later cannot cover it; hence it needs its own frame.
public struct HoldHintPlacement: Hashable, Sendable {
    /// The side of the button the bubble sits on.
    public enum Edge: String, Hashable, Sendable {
        case above, below
    }

    /// Points between the button's cell and the bubble (room for the tail).
    public static let defaultGap: CGFloat = 8
    /// How close the tail may come to the bubble's side ends (its rounded corners).
    public static let tailInset: CGFloat = 12

    /// Above the button, or below it on the top row where there is no room above.
    public var edge: Edge
    /// The bubble's frame, pulled inside the grid at the left and right edges.
    public var frame: CGRect
    /// The tip of the tail: on the button's horizontal centre, at the cell's
    /// top (bubble above) or bottom (bubble below) edge.
    public var tailTip: CGPoint

    /// Places a bubble of `bubbleSize` for the button in `slot`, or nil when
    /// the page has no such slot.
    public init?(slot: Int, in grid: DeckGrid, bubbleSize: CGSize, gap: CGFloat = HoldHintPlacement.defaultGap) {
        guard let cell = grid.frame(ofSlot: slot) else { return nil }
        let edge: Edge = grid.row(ofSlot: slot) == 0 ? .below : .above
        let y = edge == .above ? cell.minY - gap - bubbleSize.height : cell.maxY + gap
        // Centred on the button, then pulled inside the grid; a bubble wider
        // than the grid is centred on the grid instead.
        let centred = cell.midX - bubbleSize.width / 2
        let x = bubbleSize.width >= grid.size.width
            ? (grid.size.width - bubbleSize.width) / 2
            : min(max(centred, 0), grid.size.width - bubbleSize.width)
        self.edge = edge
        self.frame = CGRect(x: x, y: y, width: bubbleSize.width, height: bubbleSize.height)
        self.tailTip = CGPoint(x: cell.midX, y: edge == .above ? cell.minY : cell.maxY)
    }

    /// Where the tail leaves the bubble along its edge: below the button's
    /// centre, kept clear of the bubble's rounded corners.
    public var tailX: CGFloat {
        let inset = min(Self.tailInset, frame.width / 2)
        return min(max(tailTip.x, frame.minX + inset), frame.maxX - inset)
    }
}
