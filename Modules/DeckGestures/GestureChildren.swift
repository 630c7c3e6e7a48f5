import Foundation

/// The two children of a combinator, with pristine copies to start a new
/// touch from (recognizers are values, so a copy taken at construction is
/// the gesture before any touch).
struct GestureChildren<First: GestureRecognizer, Second: GestureRecognizer>: Sendable {
    private let pristine: (First, Second)
    var first: First
    var second: Second

    init(_ first: First, _ second: Second) {
        pristine = (first, second)
        self.first = first
        self.second = second
    }

    /// Both children as they were before any touch.
    mutating func reset() {
        (first, second) = pristine
    }

    /// The earliest deadline among the children still running.
    func deadline(firstRunning: Bool, secondRunning: Bool) -> TimeInterval? {
        [firstRunning ? first.deadline : nil, secondRunning ? second.deadline : nil].compactMap { $0 }.min()
    }
}

/// Whether a child of a combinator finished, and how.
enum ChildOutcome: Hashable, Sendable {
    case ended, failed
}
