/// One line of the report: a measured figure, what it is compared with, and
/// the target it is held to.
package struct Figure: Sendable {
    /// A median, a 99th percentile, and how many samples they came from.
    package struct Value: Sendable {
        package var median: Double
        /// Nil for a figure measured once (a size, a count per second).
        package var p99: Double?
        package var count: Int
        /// The 99th percentile is the largest sample (fewer than 100 samples).
        package var p99IsMaximum: Bool

        /// The statistics of `samples`.
        package init(_ samples: Samples) {
            median = samples.median
            p99 = samples.p99
            count = samples.count
            p99IsMaximum = samples.p99IsMaximum
        }

        /// A single figure (a size, a rate over the whole run).
        package init(single value: Double) {
            median = value
            p99 = nil
            count = 1
            p99IsMaximum = false
        }
    }

    /// Whether a target was reached. `unknown` when the figure could not be
    /// measured in this run.
    package enum Verdict: String, Sendable {
        case met, missed, unknown = "not measured"
    }

    /// Stable key for results.json (`edit.roundTrip`).
    package var id: String
    /// What the table calls it.
    package var title: String
    /// The unit of `value` and `floor` (`µs`, `ms`, `edits/s`, `KB`).
    package var unit: String
    package var value: Value?
    /// What the figure is compared with: a floor (the least this machine can
    /// do the same work in) or a reference (another program's figure).
    package var baselineLabel: String?
    package var baseline: Value?
    /// True for rates (more is better): the ratio is then value ÷ baseline
    /// and a higher ratio is better; for times it is value ÷ floor, lower is better.
    package var higherIsBetter = false
    package var target: String?
    package var verdict: Verdict?
    /// Why a figure is missing, or anything a reader of the table must know.
    package var note: String?

    package init(id: String, title: String, unit: String, value: Value?, baselineLabel: String? = nil,
                 baseline: Value? = nil, higherIsBetter: Bool = false, target: String? = nil,
                 verdict: Verdict? = nil, note: String? = nil) {
        self.id = id
        self.title = title
        self.unit = unit
        self.value = value
        self.baselineLabel = baselineLabel
        self.baseline = baseline
        self.higherIsBetter = higherIsBetter
        self.target = target
        self.verdict = verdict
        self.note = note
    }

    /// A figure that could not be measured in this run, and why.
    package static func missing(id: String, title: String, unit: String, target: String?, why: String) -> Figure {
        Figure(id: id, title: title, unit: unit, value: nil, target: target, verdict: target == nil ? nil : .unknown, note: why)
    }

    /// value ÷ baseline at the median.
    package var medianRatio: Double? {
        guard let value, let baseline, baseline.median > 0 else { return nil }
        return value.median / baseline.median
    }

    /// value ÷ baseline at the 99th percentile, when both have one.
    package var p99Ratio: Double? {
        guard let p99 = value?.p99, let floor = baseline?.p99, floor > 0 else { return nil }
        return p99 / floor
    }
}
