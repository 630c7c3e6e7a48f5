import Foundation

/// One callback of a gesture, at the instant it happened.
public struct GestureUpdate<Value: Equatable & Sendable>: Equatable, Sendable {
    /// The callbacks of SwiftUI's gestures, plus the failure they hide.
    public enum Kind: Equatable, Sendable {
        /// `onChanged`: the gesture is under way with this value.
        case changed(Value)
        /// `onEnded`: the gesture succeeded with this value. Once per touch,
        /// never after a failure or a cancel.
        case ended(Value)
        /// The gesture will not end this touch (moved too far, lifted too
        /// soon, cancelled, a second finger).
        case failed
    }

    /// When, on the caller's clock.
    public var time: TimeInterval
    /// What.
    public var kind: Kind

    /// An update.
    public init(time: TimeInterval, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// The value carried (nil for a failure).
    public var value: Value? {
        switch kind {
        case .changed(let value), .ended(let value): value
        case .failed: nil
        }
    }

    /// Whether this update finishes the gesture for the touch.
    public var isFinal: Bool {
        if case .changed = kind { return false }
        return true
    }

    static func changed(_ value: Value, at time: TimeInterval) -> Self { Self(time: time, kind: .changed(value)) }
    static func ended(_ value: Value, at time: TimeInterval) -> Self { Self(time: time, kind: .ended(value)) }
    static func failed(at time: TimeInterval) -> Self { Self(time: time, kind: .failed) }

    /// The same update with its value transformed (how a combinator reports
    /// a child's update as its own).
    func map<Other>(_ transform: (Value) -> Other) -> GestureUpdate<Other> {
        switch kind {
        case .changed(let value): .changed(transform(value), at: time)
        case .ended(let value): .ended(transform(value), at: time)
        case .failed: .failed(at: time)
        }
    }
}
