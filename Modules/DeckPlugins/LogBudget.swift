/// How many lines one plugin may put in the host's log per window (its
/// stderr and the problems of its output), so a plugin printing garbage in a
/// loop costs the log a bounded number of lines: past the budget, lines are
/// counted, and the count is logged when the window ends (a timer the
/// caller arms at ``Decision/suppress(countDue:)``), or with the next line.
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
        /// Count it, do not log it. On the first line counted in a window,
        /// `countDue` is when the window ends: ``takeCount(now:)`` then gives
        /// the count, so a plugin that floods and falls silent has its count
        /// said when the window ends, not at its next line (maybe hours later).
        case suppress(countDue: ContinuousClock.Instant?)
    }

    mutating func take(now: ContinuousClock.Instant) -> Decision {
        var left = 0
        let start: ContinuousClock.Instant
        if let current = windowStart, now - current < window {
            start = current
        } else {
            start = now
            windowStart = now
            used = 0
            left = suppressed
            suppressed = 0
        }
        guard used < capacity else {
            suppressed += 1
            return .suppress(countDue: suppressed == 1 ? start + window : nil)
        }
        used += 1
        return .log(suppressedBefore: left, isLast: used == capacity)
    }

    /// The lines counted in a window that has ended, once (0 while it goes
    /// on, or when none were): the next line opens a new window.
    mutating func takeCount(now: ContinuousClock.Instant) -> Int {
        guard suppressed > 0, let start = windowStart, now - start >= window else { return 0 }
        defer {
            suppressed = 0
            windowStart = nil
        }
        return suppressed
    }
}
