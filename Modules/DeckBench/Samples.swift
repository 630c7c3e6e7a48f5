/// A set of timings (or any repeated measurement) and the statistics the
/// report shows.
///
/// Percentiles are nearest-rank: the p-th percentile is the smallest sample
/// that at least p % of the samples do not exceed, so it is always a value
/// that was really measured. With fewer than 100 samples the 99th percentile
/// is simply the largest, and the report says so (``p99IsMaximum``).
package struct Samples: Sendable, Equatable {
    /// The samples, sorted ascending.
    package let sorted: [Double]

    /// Sorts `values`. Empty input is allowed and gives zeros.
    package init(_ values: [Double]) {
        sorted = values.sorted()
    }

    /// How many samples there are.
    package var count: Int { sorted.count }

    /// The middle sample; the mean of the two middle ones for an even count.
    package var median: Double {
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile `p` (0 < p ≤ 100).
    package func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The 99th percentile.
    package var p99: Double { percentile(99) }

    /// True when there are too few samples for the 99th percentile to differ
    /// from the largest one.
    package var p99IsMaximum: Bool { sorted.count < 100 }

    /// The smallest sample.
    package var minimum: Double { sorted.first ?? 0 }

    /// The largest sample.
    package var maximum: Double { sorted.last ?? 0 }

    /// The arithmetic mean.
    package var mean: Double { sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count) }

    /// The samples with every value multiplied by `factor` (unit changes).
    package func scaled(by factor: Double) -> Samples { Samples(sorted.map { $0 * factor }) }
}
