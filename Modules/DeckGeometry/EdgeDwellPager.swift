import Foundation

/// Page flips while a lifted button dwells at the left or right edge of the
/// grid, as pure time arithmetic: the caller says where the finger is and what
/// time it is, and learns whether to flip and when to ask again. Nothing
/// here reads a clock or polls, so a virtual clock drives it exactly.
public struct EdgeDwellPager: Hashable, Sendable {
    /// Width of the zone inside each side edge, in points.
    public static let zoneWidth: CGFloat = 40
    /// From entering a zone to the first flip, in seconds.
    public static let firstDelay: TimeInterval = 0.5
    /// Between further flips while the finger stays, in seconds (longer than
    /// the first, to give time to look at the new page).
    public static let repeatDelay: TimeInterval = 0.7

    /// A side of the grid.
    public enum Edge: Hashable, Sendable {
        case left, right
    }

    /// What one update decided.
    public struct Step: Hashable, Sendable {
        /// The page to show now, or nil to stay.
        public var newPage: Int?
        /// When to call ``update(x:width:now:page:pageCount:)`` again with
        /// the same finger, or nil when no flip can come without a move.
        public var deadline: TimeInterval?

        /// A step.
        public init(newPage: Int?, deadline: TimeInterval?) {
            self.newPage = newPage
            self.deadline = deadline
        }
    }

    /// The zone being dwelt in and when it flips next.
    private struct Dwell: Hashable, Sendable {
        var edge: Edge
        var nextFlip: TimeInterval
    }

    private var dwell: Dwell?

    /// A pager with no dwell in progress.
    public init() {}

    /// The edge zone that holds `x` in a grid `width` wide, or nil. A finger
    /// beyond the grid's edge still counts as at that edge.
    public static func edge(x: CGFloat, width: CGFloat) -> Edge? {
        if x < zoneWidth { return .left }
        if x > width - zoneWidth { return .right }
        return nil
    }

    /// Feeds the finger's position at `now` (after a move, or at the last
    /// deadline). Entering a zone starts the wait; leaving it resets it;
    /// a due flip happens once per call and the next one is scheduled from
    /// the flip's own instant, not from when the caller got round to it.
    public mutating func update(x: CGFloat, width: CGFloat, now: TimeInterval, page: Int, pageCount: Int) -> Step {
        guard let edge = Self.edge(x: x, width: width) else {
            dwell = nil
            return Step(newPage: nil, deadline: nil)
        }
        if dwell?.edge != edge {
            dwell = Dwell(edge: edge, nextFlip: now + Self.firstDelay)
        }
        guard var current = dwell else { return Step(newPage: nil, deadline: nil) }
        var shown = page
        var flipped: Int?
        if VirtualTime.isDue(current.nextFlip, at: now), let next = Self.neighbour(of: page, toward: edge, pageCount: pageCount) {
            flipped = next
            shown = next
            current.nextFlip += Self.repeatDelay
            dwell = current
        }
        let more = Self.neighbour(of: shown, toward: edge, pageCount: pageCount) != nil
        return Step(newPage: flipped, deadline: more ? current.nextFlip : nil)
    }

    /// Forgets the dwell (the button was dropped or went back).
    public mutating func reset() { dwell = nil }

    /// The page next to `page` on the side of `edge`, or nil past either end.
    private static func neighbour(of page: Int, toward edge: Edge, pageCount: Int) -> Int? {
        let next = edge == .left ? page - 1 : page + 1
        return (0..<pageCount).contains(next) ? next : nil
    }
}
