import Foundation

/// The value of two exclusive gestures: whichever one is being reported.
public enum ExclusiveValue<First: Equatable & Sendable, Second: Equatable & Sendable>: Equatable, Sendable {
    /// The first gesture's value (it has precedence).
    case first(First)
    /// The second gesture's value (reported once the first failed).
    case second(Second)
}

/// SwiftUI's `exclusively(before:)`: both gestures see every touch, but while
/// the first has not failed only its callbacks are reported and an end of
/// the second is held back. Once the first fails the second's callbacks
/// are, starting with a held-back end.
public struct ExclusiveRecognizer<First: GestureRecognizer, Second: GestureRecognizer>: GestureRecognizer {
    /// The reported value.
    public typealias Value = ExclusiveValue<First.Value, Second.Value>

    private var children: GestureChildren<First, Second>
    private var firstFailed = false
    /// How the second child finished while the first still had precedence.
    private var secondHeld: GestureUpdate<Second.Value>.Kind?
    private var finished = false

    /// `first` with precedence over `second`.
    public init(_ first: First, _ second: Second) {
        children = GestureChildren(first, second)
    }

    /// The earlier deadline of the children still running.
    public var deadline: TimeInterval? {
        guard !finished else { return nil }
        return children.deadline(firstRunning: !firstFailed, secondRunning: secondHeld == nil)
    }

    /// True once it ended or failed.
    public var isFinished: Bool { finished }

    /// Feeds one input to both children, the first one first.
    public mutating func receive(_ input: GestureInput) -> [GestureUpdate<Value>] {
        if finished {
            guard input.startsTouch else { return [] }
            children.reset()
            firstFailed = false
            secondHeld = nil
            finished = false
        }
        var out: [GestureUpdate<Value>] = []
        if !firstFailed {
            for update in children.first.receive(input) {
                out += reportFirst(update)
            }
        }
        if !finished && secondHeld == nil {
            for update in children.second.receive(input) {
                out += reportSecond(update)
            }
        }
        return out
    }

    private mutating func reportFirst(_ update: GestureUpdate<First.Value>) -> [GestureUpdate<Value>] {
        switch update.kind {
        case .changed(let a):
            return [.changed(.first(a), at: update.time)]
        case .ended(let a):
            finished = true
            return [.ended(.first(a), at: update.time)]
        case .failed:
            firstFailed = true
            // The second's end, held back until now, is reported at this instant.
            guard let held = secondHeld else { return [] }
            return finish(with: GestureUpdate(time: update.time, kind: held))
        }
    }

    private mutating func reportSecond(_ update: GestureUpdate<Second.Value>) -> [GestureUpdate<Value>] {
        if update.isFinal && !firstFailed {
            secondHeld = update.kind
            return []
        }
        guard firstFailed else { return [] }
        return update.isFinal ? finish(with: update) : [update.map(Value.second)]
    }

    private mutating func finish(with update: GestureUpdate<Second.Value>) -> [GestureUpdate<Value>] {
        finished = true
        return [update.map(Value.second)]
    }
}
