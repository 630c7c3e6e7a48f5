/// A small, fast, seedable random generator (SplitMix64), so property tests
/// and fuzzers replay the same inputs on every run and every machine.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// Up to `maximum` of `pieces` picked at random, one after another: inputs
    /// for property tests of byte readers (line ends, spaces, broken UTF-8).
    public mutating func bytes(joining pieces: [[UInt8]], upTo maximum: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...maximum, using: &self) { bytes += pieces.randomElement(using: &self)! }
        return bytes
    }
}
