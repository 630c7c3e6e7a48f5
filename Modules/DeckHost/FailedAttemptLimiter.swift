/// The failed-token limit of PROTOCOL.md §9: an address that failed `limit`
/// times within `window` gets `unauthorized` at once, without a comparison.
///
/// A sliding window per address (the host part only: a client that
/// reconnects from a new port is the same client). Loop-confined.
struct FailedAttemptLimiter {
    let limit: Int
    let window: Duration
    /// The most addresses remembered; beyond it the stalest is forgotten, so a
    /// flood of spoofed addresses cannot grow memory without bound.
    let capacity: Int
    private var failures: [String: [ContinuousClock.Instant]] = [:]

    init(limit: Int = 10, window: Duration = .seconds(60), capacity: Int = 4096) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
    }

    /// True when `address` has used up its attempts for now.
    mutating func isBlocked(_ address: String, now: ContinuousClock.Instant) -> Bool {
        prune(address, now: now)
        return (failures[address]?.count ?? 0) >= limit
    }

    /// Counts one failed attempt.
    mutating func recordFailure(_ address: String, now: ContinuousClock.Instant) {
        prune(address, now: now)
        if failures[address] == nil, failures.count >= capacity {
            evictStalest()
        }
        failures[address, default: []].append(now)
    }

    /// How many addresses are remembered (for tests).
    var trackedAddresses: Int { failures.count }

    private mutating func prune(_ address: String, now: ContinuousClock.Instant) {
        guard var times = failures[address] else { return }
        times.removeAll { now - $0 >= window }
        failures[address] = times.isEmpty ? nil : times
    }

    private mutating func evictStalest() {
        guard let stalest = failures.min(by: { ($0.value.last ?? .now) < ($1.value.last ?? .now) })?.key else { return }
        failures[stalest] = nil
    }
}
