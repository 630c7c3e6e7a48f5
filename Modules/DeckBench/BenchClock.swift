import Glibc

/// Monotonic time and process CPU time, in nanoseconds.
package enum BenchClock {
    /// Nanoseconds on the monotonic clock (not affected by changes of the wall clock).
    package static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Microseconds from `start` until now.
    package static func microseconds(since start: UInt64) -> Double {
        Double(now() &- start) / 1_000
    }

    /// Runs `body` and returns how long it took, in microseconds.
    package static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return microseconds(since: start)
    }
}
