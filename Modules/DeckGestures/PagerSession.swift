import Foundation

/// A swipe pager driven by touches: a drag of `minimumDistance` in a named
/// space that does not move with the pages (a `local` space would feed the
/// offset back into the drag and jitter), feeding a ``SwipePager``. This is
/// the whole interaction of a reels-style card feed.
public struct PagerSession: Sendable {
    /// What the view should do.
    public enum Output: Hashable, Sendable {
        /// Put the strip at this offset now, without animation (following a finger).
        case offset(CGFloat)
        /// The page changed.
        case page(Int)
        /// Animate the strip to this offset (released, or cancelled).
        case settle(CGFloat)
    }

    /// An output at its instant.
    public struct Update: Hashable, Sendable {
        /// When.
        public var time: TimeInterval
        /// What.
        public var output: Output
    }

    /// The pager, with the page and the offset to draw.
    public private(set) var pager: SwipePager
    private var tracker: GestureTracker<DragRecognizer>

    /// A session for `pager`; touches are in a space whose origin is `origin`.
    public init(pager: SwipePager, minimumDistance: CGFloat = 10, origin: CGPoint = .zero) {
        self.pager = pager
        tracker = GestureTracker(DragRecognizer(minimumDistance: minimumDistance, coordinateSpace: .named(origin: origin)))
    }

    /// Feeds one touch and returns what to draw, each with its time.
    public mutating func handle(_ event: TouchEvent) -> [Update] {
        var out: [Update] = []
        for update in tracker.receive(event) {
            switch update.kind {
            case .changed(let drag):
                pager.follow(drag)
                out.append(Update(time: update.time, output: .offset(pager.offset)))
            case .ended(let drag):
                if case .flipped(let page) = pager.release(drag) { out.append(Update(time: update.time, output: .page(page))) }
                out.append(Update(time: update.time, output: .settle(pager.offset)))
            case .failed:
                // A drag that never started has nothing to settle.
                guard pager.isFollowing else { continue }
                pager.settle()
                out.append(Update(time: update.time, output: .settle(pager.offset)))
            }
        }
        return out
    }
}
