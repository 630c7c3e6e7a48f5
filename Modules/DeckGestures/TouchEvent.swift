import Foundation

/// One timestamped touch sample from the screen, in global coordinates (or,
/// for an ``ArrangeSession``, in the grid's own coordinate space).
public struct TouchEvent: Hashable, Sendable {
    /// What the finger did.
    public enum Phase: Hashable, Sendable {
        /// A finger touched the glass. A second finger while one is down
        /// makes every live gesture fail, as a cancel does.
        case down
        /// The finger moved.
        case move
        /// The finger lifted.
        case up
        /// The system took the touch away (a call came in, the app went to
        /// the background): every live gesture fails, none ends.
        case cancel
    }

    /// Seconds on the caller's clock; never earlier than the event before.
    public var time: TimeInterval
    /// What happened.
    public var phase: Phase
    /// Where it happened (ignored for a cancel).
    public var location: CGPoint

    /// A touch sample.
    public init(time: TimeInterval, phase: Phase, location: CGPoint = .zero) {
        self.time = time
        self.phase = phase
        self.location = location
    }

    /// A finger touching the glass at `location`.
    public static func down(_ location: CGPoint, at time: TimeInterval) -> TouchEvent {
        TouchEvent(time: time, phase: .down, location: location)
    }

    /// The finger moving to `location`.
    public static func move(_ location: CGPoint, at time: TimeInterval) -> TouchEvent {
        TouchEvent(time: time, phase: .move, location: location)
    }

    /// The finger lifting at `location`.
    public static func up(_ location: CGPoint, at time: TimeInterval) -> TouchEvent {
        TouchEvent(time: time, phase: .up, location: location)
    }

    /// The system taking the touch away.
    public static func cancel(at time: TimeInterval) -> TouchEvent {
        TouchEvent(time: time, phase: .cancel)
    }
}
