import Foundation

/// What a recognizer is told: one touch of a single finger, or that the clock
/// reached one of its deadlines. ``GestureTracker`` turns raw ``TouchEvent``s
/// into these (counting fingers, firing deadlines at their own instant).
public struct GestureInput: Hashable, Sendable {
    /// The kinds of input.
    public enum Kind: Hashable, Sendable {
        /// The touch began here.
        case down(CGPoint)
        /// The touch moved here.
        case move(CGPoint)
        /// The touch lifted here.
        case up(CGPoint)
        /// The first touch this recognizer sees is already the lift: it
        /// begins and lifts here at the same instant. Happens to the second
        /// part of a sequence when the finger lifts right after the first
        /// part ended; a zero-distance drag ends at once from it.
        case downUp(CGPoint)
        /// The touch was taken away, or a second finger came: live gestures fail.
        case cancel
        /// The clock reached `time`, a deadline of the recognizer.
        case clock
    }

    /// When.
    public var time: TimeInterval
    /// What.
    public var kind: Kind
    /// The origin, in global coordinates, of the view the gesture is attached
    /// to, as it is at this instant; `local` coordinate spaces measure from it.
    public var viewOrigin: CGPoint

    /// An input.
    public init(time: TimeInterval, kind: Kind, viewOrigin: CGPoint = .zero) {
        self.time = time
        self.kind = kind
        self.viewOrigin = viewOrigin
    }

    /// The same instant and view with another kind.
    func with(_ kind: Kind) -> GestureInput {
        GestureInput(time: time, kind: kind, viewOrigin: viewOrigin)
    }

    /// Whether this input starts a new touch for a recognizer that is finished.
    var startsTouch: Bool {
        switch kind {
        case .down, .downUp: true
        default: false
        }
    }
}

/// Where drag locations are measured from.
public enum GestureCoordinateSpace: Hashable, Sendable {
    /// The screen: touches as they arrive.
    case global
    /// A named space whose origin sits at `origin` in global coordinates, such
    /// as the deck's grid. It does not move with the gesture's own view.
    case named(origin: CGPoint)
    /// The gesture's own view, as its frame is at each event. A view whose
    /// offset follows the drag moves its own origin under the finger, so the
    /// translation it reports is halved and jitters; use `global` or `named`
    /// for anything that moves with the drag.
    case local

    /// `point` (global) expressed in this space.
    func convert(_ point: CGPoint, viewOrigin: CGPoint) -> CGPoint {
        switch self {
        case .global: point
        case .named(let origin): CGPoint(x: point.x - origin.x, y: point.y - origin.y)
        case .local: CGPoint(x: point.x - viewOrigin.x, y: point.y - viewOrigin.y)
        }
    }
}

extension CGPoint {
    /// The straight-line distance to `other`.
    func distance(to other: CGPoint) -> CGFloat {
        hypot(x - other.x, y - other.y)
    }
}
