/// The clock and the randomness the rules draw on, injected so a test can
/// fix them: the host's are the system clocks and `getrandom(2)`.
struct HostEnvironment {
    /// Seconds since 1970, UTC (token creation, pairing-code expiry as shown).
    var utcNow: @Sendable () -> Int = { UTCTime.now() }
    /// The monotonic clock pairing codes expire on.
    var instantNow: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Where tokens and pairing codes come from.
    var random = HostRandom(SystemRandomNumberGenerator())
}

/// Any random number generator as one stored value (HostState is a plain
/// struct, not generic over its generator).
struct HostRandom: RandomNumberGenerator {
    private var base: any RandomNumberGenerator

    init(_ base: some RandomNumberGenerator) {
        self.base = base
    }

    mutating func next() -> UInt64 {
        base.next()
    }
}
