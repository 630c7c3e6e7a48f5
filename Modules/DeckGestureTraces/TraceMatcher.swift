import Foundation

/// Compares a trace's callbacks with its `expect` (GESTURES.md §3): the same
/// callbacks in the same order at the same times (±0.001 s); every field an
/// expected callback gives equals the actual one (numbers ±0.01), fields it
/// leaves out are not compared; callbacks at one instant may come in any order.
public enum TraceMatcher {
    /// Tolerance on callback times, in seconds.
    public static let timeTolerance = 0.001
    /// Tolerance on every other number.
    public static let numberTolerance = 0.01

    /// Nil when `actual` matches `expected`, else a one-line reason.
    public static func mismatch(expected: [TraceValue], actual: [TraceValue]) -> String? {
        let expectedGroups = instants(expected)
        let actualGroups = instants(actual)
        for (index, wanted) in expectedGroups.enumerated() {
            guard index < actualGroups.count else {
                return "missing from t=\(TraceValue.format(wanted.time)) on: expected \(wanted.items.map(\.json).joined(separator: ", "))"
            }
            let got = actualGroups[index]
            guard abs(got.time - wanted.time) <= timeTolerance else {
                return "at t=\(TraceValue.format(wanted.time)) expected \(wanted.items.map(\.json).joined(separator: ", ")); "
                    + "the next callbacks came at t=\(TraceValue.format(got.time)): \(got.items.map(\.json).joined(separator: ", "))"
            }
            guard wanted.items.count == got.items.count, pairs(wanted.items, got.items) else {
                return "at t=\(TraceValue.format(wanted.time)) expected \(wanted.items.map(\.json).joined(separator: ", ")); "
                    + "got \(got.items.map(\.json).joined(separator: ", "))"
            }
        }
        if actualGroups.count > expectedGroups.count {
            let extra = actualGroups[expectedGroups.count]
            return "unexpected callbacks at t=\(TraceValue.format(extra.time)): \(extra.items.map(\.json).joined(separator: ", "))"
        }
        return nil
    }

    /// Whether `actual` has every field of `expected` with an equal value.
    public static func matches(_ expected: TraceValue, _ actual: TraceValue) -> Bool {
        switch (expected, actual) {
        case (.number(let a), .number(let b)):
            return abs(a - b) <= numberTolerance
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy(matches)
        case (.object(let fields), .object):
            return fields.allSatisfy { field in
                guard let other = actual[field.key] else { return false }
                return field.key == "t" ? timesMatch(field.value, other) : matches(field.value, other)
            }
        default:
            return expected == actual
        }
    }

    private static func timesMatch(_ a: TraceValue, _ b: TraceValue) -> Bool {
        guard case .number(let x) = a, case .number(let y) = b else { return false }
        return abs(x - y) <= timeTolerance
    }

    /// Callbacks grouped by instant, in order.
    private static func instants(_ callbacks: [TraceValue]) -> [(time: Double, items: [TraceValue])] {
        var groups: [(time: Double, items: [TraceValue])] = []
        for callback in callbacks {
            let time: Double = if case .number(let t) = callback["t"] ?? .null { t } else { .nan }
            if let last = groups.last, abs(last.time - time) <= timeTolerance {
                groups[groups.count - 1].items.append(callback)
            } else {
                groups.append((time, [callback]))
            }
        }
        return groups
    }

    /// Whether every expected callback of one instant can be paired with a
    /// different actual one (any order within the instant).
    private static func pairs(_ expected: [TraceValue], _ actual: [TraceValue]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        for (index, candidate) in actual.enumerated() where matches(first, candidate) {
            var rest = actual
            rest.remove(at: index)
            if pairs(Array(expected.dropFirst()), rest) { return true }
        }
        return false
    }
}
