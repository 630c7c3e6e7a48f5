import DeckGeometry
import Foundation

/// SwiftUI's `TapGesture`: ends at the lift of the `count`-th touch when
/// every touch stayed within ``slop`` points and lasted at most
/// ``maximumDuration``. It reports no `changed`.
public struct TapRecognizer: GestureRecognizer {
    /// A tap carries no value (null in a trace).
    public struct Value: Hashable, Sendable {
        /// The value.
        public init() {}
    }

    /// How far a touch may wander, in points, before it is no tap.
    public static let slop: CGFloat = 45
    /// How long a touch may stay down and still be a tap, in seconds.
    public static let maximumDuration: TimeInterval = 0.75
    /// For a multiple tap: the longest wait from one lift to the next touch, in seconds.
    public static let maximumGap: TimeInterval = 0.35

    /// Taps needed (2 for a double tap).
    public let count: Int

    private enum State: Hashable, Sendable {
        case idle
        /// A finger is down: where the first tap began, where this one did,
        /// how many taps are complete, and when this touch times out.
        case touching(first: CGPoint, start: CGPoint, done: Int, until: TimeInterval)
        /// Between two taps of a multiple tap.
        case waiting(first: CGPoint, done: Int, until: TimeInterval)
        case ended
        case failed
    }

    private var state = State.idle

    /// A tap of `count` touches (at least one).
    public init(count: Int = 1) {
        self.count = max(1, count)
    }

    /// When the current touch, or the wait for the next one, runs out.
    public var deadline: TimeInterval? {
        switch state {
        case .touching(_, _, _, let until), .waiting(_, _, let until): until
        default: nil
        }
    }

    /// True once it ended or failed.
    public var isFinished: Bool { state == .ended || state == .failed }

    /// Feeds one input.
    public mutating func receive(_ input: GestureInput) -> [GestureUpdate<Value>] {
        let t = input.time
        switch (state, input.kind) {
        case (.touching, .down), (.touching, .downUp):
            return []
        case (.waiting(let first, let done, _), .down(let point)):
            guard !LengthThreshold.exceeds(point.distance(to: first), Self.slop) else { return fail(at: t) }
            state = .touching(first: first, start: point, done: done, until: t + Self.maximumDuration)
            return []
        case (.waiting(let first, let done, _), .downUp(let point)):
            guard !LengthThreshold.exceeds(point.distance(to: first), Self.slop) else { return fail(at: t) }
            return complete(first: first, done: done, at: t)
        case (_, .down(let point)):
            state = .touching(first: point, start: point, done: 0, until: t + Self.maximumDuration)
            return []
        case (_, .downUp(let point)):
            return complete(first: point, done: 0, at: t)
        case (.touching(_, let start, _, _), .move(let point)):
            return LengthThreshold.exceeds(point.distance(to: start), Self.slop) ? fail(at: t) : []
        case (.touching(let first, let start, let done, _), .up(let point)):
            return LengthThreshold.exceeds(point.distance(to: start), Self.slop) ? fail(at: t) : complete(first: first, done: done, at: t)
        case (.touching(_, _, _, let until), .clock) where VirtualTime.isDue(until, at: t),
             (.waiting(_, _, let until), .clock) where VirtualTime.isDue(until, at: t):
            return fail(at: t)
        case (.touching, .cancel), (.waiting, .cancel):
            return fail(at: t)
        default:
            return []
        }
    }

    private mutating func complete(first: CGPoint, done: Int, at t: TimeInterval) -> [GestureUpdate<Value>] {
        if done + 1 >= count {
            state = .ended
            return [.ended(Value(), at: t)]
        }
        state = .waiting(first: first, done: done + 1, until: t + Self.maximumGap)
        return []
    }

    private mutating func fail(at t: TimeInterval) -> [GestureUpdate<Value>] {
        state = .failed
        return [.failed(at: t)]
    }
}
