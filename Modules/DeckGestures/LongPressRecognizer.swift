import DeckGeometry
import Foundation

/// SwiftUI's `LongPressGesture`: `changed(true)` at touch-down, `ended(true)`
/// when the finger has stayed down and close for `minimumDuration`.
///
/// It ends at its duration with the finger still on the glass and does not
/// report the lift, so its callbacks cannot tell when the finger leaves. To
/// learn the real release, sequence it before a zero-distance ``DragRecognizer``.
public struct LongPressRecognizer: GestureRecognizer {
    /// `true` while pressing and at the end, as in SwiftUI.
    public typealias Value = Bool

    /// How long the finger must stay down, in seconds.
    public let minimumDuration: TimeInterval
    /// Moving this far from the touch-down (or further) first makes it fail.
    public let maximumDistance: CGFloat

    private enum State: Hashable, Sendable {
        case idle
        case pressing(start: CGPoint, until: TimeInterval)
        case ended
        case failed
    }

    private var state = State.idle

    /// A long press; SwiftUI's defaults are 0.5 s and 10 points.
    public init(minimumDuration: TimeInterval = 0.5, maximumDistance: CGFloat = 10) {
        self.minimumDuration = minimumDuration
        self.maximumDistance = maximumDistance
    }

    /// The instant the press will succeed, while pressing.
    public var deadline: TimeInterval? {
        if case .pressing(_, let until) = state { return until }
        return nil
    }

    /// True once it ended or failed.
    public var isFinished: Bool { state == .ended || state == .failed }

    /// Feeds one input.
    public mutating func receive(_ input: GestureInput) -> [GestureUpdate<Bool>] {
        let t = input.time
        switch (state, input.kind) {
        case (_, .down(let point)) where !isPressing:
            state = .pressing(start: point, until: t + minimumDuration)
            return [.changed(true, at: t)]
        case (_, .downUp) where !isPressing:
            // Touched and lifted at once: only a zero-length press can succeed.
            state = minimumDuration <= 0 ? .ended : .failed
            return [minimumDuration <= 0 ? .ended(true, at: t) : .failed(at: t)]
        case (.pressing(let start, _), .move(let point)):
            guard LengthThreshold.reaches(point.distance(to: start), maximumDistance) else { return [] }
            state = .failed
            return [.failed(at: t)]
        case (.pressing, .up), (.pressing, .cancel):
            state = .failed
            return [.failed(at: t)]
        case (.pressing(_, let until), .clock) where VirtualTime.isDue(until, at: t):
            state = .ended
            return [.ended(true, at: t)]
        default:
            return []
        }
    }

    private var isPressing: Bool {
        if case .pressing = state { return true }
        return false
    }
}
