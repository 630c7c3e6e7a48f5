/// How measurements are repeated.
///
/// Every body first runs `warmUp` times unrecorded (caches, page faults,
/// lazily bound symbols, the disk's first journal commit). Then, when a
/// figure is compared with a floor, the two are measured in alternating
/// rounds rather than one after the other: a machine shared with other work
/// drifts over seconds, and alternating makes both sides of a ratio see the
/// same drift.
package enum Measure {
    /// Runs `bodies` (each returns one sample, in whatever unit it measures)
    /// `count` times each after `warmUp` unrecorded runs, alternating between
    /// them in `rounds` blocks. Returns one ``Samples`` per body, in order.
    package static func interleaved(count: Int, warmUp: Int, rounds: Int = 5,
                                    _ bodies: [() throws -> Double]) throws -> [Samples] {
        for body in bodies {
            for _ in 0..<warmUp { _ = try body() }
        }
        var values = Array(repeating: [Double](), count: bodies.count)
        let rounds = max(1, min(rounds, count))
        for round in 0..<rounds {
            let inThisRound = count / rounds + (round < count % rounds ? 1 : 0)
            for (index, body) in bodies.enumerated() {
                for _ in 0..<inThisRound { values[index].append(try body()) }
            }
        }
        return values.map(Samples.init)
    }

    /// One body: `count` samples after `warmUp` unrecorded runs.
    package static func repeated(count: Int, warmUp: Int, _ body: () throws -> Double) throws -> Samples {
        try withoutActuallyEscaping(body) { body in try interleaved(count: count, warmUp: warmUp, rounds: 1, [body])[0] }
    }
}
