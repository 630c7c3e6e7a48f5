import Foundation

/// The value of a sequence: the first gesture's while it runs, then both.
public enum SequenceValue<First: Equatable & Sendable, Second: Equatable & Sendable>: Equatable, Sendable {
    /// The first gesture is running.
    case first(First)
    /// The first gesture ended with this value; the second's value is nil
    /// until it reports one.
    case second(First, Second?)
}

/// SwiftUI's `sequenced(before:)`: `First`, then `Second` on the touches that
/// come after `First` ended.
///
/// The second part's start is the first touch it sees. When the finger
/// lifts right after the first part ended, that first touch is the lift:
/// a zero-distance drag then ends at once from it, which is why a long press
/// sequenced before such a drag is the one reliable way to learn the real
/// release of a held finger.
public struct SequenceRecognizer<First: GestureRecognizer, Second: GestureRecognizer>: GestureRecognizer {
    /// The sequence's value.
    public typealias Value = SequenceValue<First.Value, Second.Value>

    private enum Stage: Equatable, Sendable {
        case first
        case waitingForSecond(First.Value)
        case second(First.Value)
        case ended
        case failed
    }

    private var children: GestureChildren<First, Second>
    private var stage = Stage.first

    /// `first`, then `second`.
    public init(_ first: First, _ second: Second) {
        children = GestureChildren(first, second)
    }

    /// The running part's deadline.
    public var deadline: TimeInterval? {
        switch stage {
        case .first: children.first.deadline
        case .second: children.second.deadline
        default: nil
        }
    }

    /// True once it ended or failed.
    public var isFinished: Bool { stage == .ended || stage == .failed }

    /// Feeds one input.
    public mutating func receive(_ input: GestureInput) -> [GestureUpdate<Value>] {
        if isFinished && input.startsTouch {
            children.reset()
            stage = .first
        }
        switch stage {
        case .first:
            var out: [GestureUpdate<Value>] = []
            for update in children.first.receive(input) { out += reportFirst(update) }
            return out
        case .waitingForSecond(let a):
            // The first touch after the first part ended is the second
            // part's start: a move becomes its touch-down, a lift its
            // touch-down and lift at once.
            let start: GestureInput.Kind
            switch input.kind {
            case .down(let point), .move(let point): start = .down(point)
            case .up(let point), .downUp(let point): start = .downUp(point)
            case .cancel:
                // The second part has not begun, but the sequence is live.
                stage = .failed
                return [.failed(at: input.time)]
            case .clock: return []
            }
            stage = .second(a)
            return reportSecond(children.second.receive(input.with(start)), after: a)
        case .second(let a):
            return reportSecond(children.second.receive(input), after: a)
        case .ended, .failed:
            return []
        }
    }

    private mutating func reportFirst(_ update: GestureUpdate<First.Value>) -> [GestureUpdate<Value>] {
        switch update.kind {
        case .changed(let a):
            return [.changed(.first(a), at: update.time)]
        case .ended(let a):
            stage = .waitingForSecond(a)
            return [.changed(.second(a, nil), at: update.time)]
        case .failed:
            stage = .failed
            return [.failed(at: update.time)]
        }
    }

    private mutating func reportSecond(_ updates: [GestureUpdate<Second.Value>], after a: First.Value) -> [GestureUpdate<Value>] {
        for update in updates {
            switch update.kind {
            case .changed: break
            case .ended: stage = .ended
            case .failed: stage = .failed
            }
        }
        return updates.map { update in update.map { .second(a, $0) } }
    }
}
