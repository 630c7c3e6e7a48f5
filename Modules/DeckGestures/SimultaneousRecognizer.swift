import Foundation

/// The value of two simultaneous gestures. A child that ended keeps its last
/// value here; a failed child's is nil.
public struct SimultaneousValue<First: Equatable & Sendable, Second: Equatable & Sendable>: Equatable, Sendable {
    /// The first gesture's value.
    public var first: First?
    /// The second gesture's value.
    public var second: Second?

    /// A value.
    public init(first: First?, second: Second?) {
        self.first = first
        self.second = second
    }
}

/// SwiftUI's `simultaneously(with:)`: both gestures see every touch. It
/// changes whenever either reports, ends once both are finished and at least
/// one ended, and fails when both failed.
public struct SimultaneousRecognizer<First: GestureRecognizer, Second: GestureRecognizer>: GestureRecognizer {
    /// The combined value.
    public typealias Value = SimultaneousValue<First.Value, Second.Value>

    private var children: GestureChildren<First, Second>
    private var outcomes: (first: ChildOutcome?, second: ChildOutcome?) = (nil, nil)
    private var value = Value(first: nil, second: nil)
    private var finished = false

    /// `first` and `second` together.
    public init(_ first: First, _ second: Second) {
        children = GestureChildren(first, second)
    }

    /// The earlier deadline of the children still running.
    public var deadline: TimeInterval? {
        children.deadline(firstRunning: outcomes.first == nil, secondRunning: outcomes.second == nil)
    }

    /// True once both children finished.
    public var isFinished: Bool { finished }

    /// Feeds one input to both children, the first one first.
    public mutating func receive(_ input: GestureInput) -> [GestureUpdate<Value>] {
        if finished {
            guard input.startsTouch else { return [] }
            children.reset()
            outcomes = (nil, nil)
            value = Value(first: nil, second: nil)
            finished = false
        }
        var moved = false
        if outcomes.first == nil {
            for update in children.first.receive(input) {
                value.first = update.kind == .failed ? nil : update.value
                outcomes.first = outcome(of: update)
                moved = moved || update.kind != .failed
            }
        }
        if outcomes.second == nil {
            for update in children.second.receive(input) {
                value.second = update.kind == .failed ? nil : update.value
                outcomes.second = outcome(of: update)
                moved = moved || update.kind != .failed
            }
        }
        if let a = outcomes.first, let b = outcomes.second {
            finished = true
            return [a == .ended || b == .ended ? .ended(value, at: input.time) : .failed(at: input.time)]
        }
        // A child's failure alone is no change worth reporting: its value
        // turns nil in the next report.
        return moved ? [.changed(value, at: input.time)] : []
    }

    private func outcome<V>(of update: GestureUpdate<V>) -> ChildOutcome? {
        switch update.kind {
        case .changed: nil
        case .ended: .ended
        case .failed: .failed
        }
    }
}
