/// How many lines one plugin may put in the host's log per window (its
/// stderr and the problems of its output), so a plugin printing garbage in a
/// loop costs the log a bounded number of lines: past the budget, lines are
/// counted, and the count is logged once the next window opens.
struct LogBudget {
    let capacity: Int
    let window: Duration
    private var windowStart: ContinuousClock.Instant?
    private var used = 0
    private(set) var suppressed = 0

    init(capacity: Int, window: Duration) {
        self.capacity = capacity
        self.window = window
    }

    /// What to do with one more line.
    enum Decision: Equatable {
        /// Log it; `suppressedBefore` lines were left out since the last one
        /// logged. When `isLast`, say that further lines are counted, not
        /// logged, for a while.
        case log(suppressedBefore: Int, isLast: Bool)
        /// Count it, do not log it.
        case suppress
    }

    mutating func take(now: ContinuousClock.Instant) -> Decision {
        var left = 0
        if let start = windowStart, now - start < window {
            // the current window goes on
        } else {
            windowStart = now
            used = 0
            left = suppressed
            suppressed = 0
        }
        guard used < capacity else {
            suppressed += 1
            return .suppress
        }
        used += 1
        return .log(suppressedBefore: left, isLast: used == capacity)
    }
}
