import Foundation

/// A gesture as a state machine: inputs go in, the callbacks they cause come
/// out. Value types throughout, so a test (or a trace replay) drives one
/// directly and a copy is a snapshot.
///
/// Conformers follow three rules the combinators rely on:
/// - a `.down` or `.downUp` while ``isFinished`` starts the gesture afresh;
/// - a `.clock` input at or after ``deadline`` fires it (earlier ones do nothing);
/// - after an `ended` or `failed` update nothing more is reported until a new touch.
///
/// Drive a recognizer through ``GestureTracker``, which fires deadlines at
/// their own instant and turns raw touches of one or more fingers into inputs.
public protocol GestureRecognizer: Sendable {
    /// What the gesture reports with `changed` and `ended`.
    associatedtype Value: Equatable & Sendable

    /// The next instant the gesture needs the clock (a long press reaching
    /// its duration, a tap timing out), or nil when only a touch can move it on.
    var deadline: TimeInterval? { get }

    /// True once the gesture ended or failed for the current touch.
    var isFinished: Bool { get }

    /// Feeds one input and returns the callbacks it causes, in order.
    mutating func receive(_ input: GestureInput) -> [GestureUpdate<Value>]
}

extension GestureRecognizer {
    /// This gesture, then `second` on the touches that come after this one ended.
    public func sequenced<Second: GestureRecognizer>(before second: Second) -> SequenceRecognizer<Self, Second> {
        SequenceRecognizer(self, second)
    }

    /// This gesture and `other` on the same touches, reported together.
    public func simultaneously<Other: GestureRecognizer>(with other: Other) -> SimultaneousRecognizer<Self, Other> {
        SimultaneousRecognizer(self, other)
    }

    /// This gesture with precedence over `other`: `other` is only reported
    /// once this one failed.
    public func exclusively<Other: GestureRecognizer>(before other: Other) -> ExclusiveRecognizer<Self, Other> {
        ExclusiveRecognizer(self, other)
    }
}
