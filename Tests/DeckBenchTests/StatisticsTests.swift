@testable import DeckBench
import Testing

@Suite("Statistics the report shows")
struct StatisticsTests {
    @Test("median of an odd and an even count")
    func median() {
        #expect(Samples([5, 1, 3]).median == 3)
        #expect(Samples([4, 1, 3, 2]).median == 2.5)
        #expect(Samples([]).median == 0)
    }

    @Test("percentiles are nearest-rank: always a measured sample")
    func nearestRank() {
        let hundred = Samples((1...100).map(Double.init).shuffled())
        #expect(hundred.p99 == 99)
        #expect(hundred.percentile(50) == 50)
        #expect(hundred.percentile(100) == 100)
        #expect(!hundred.p99IsMaximum)
        let twoHundred = Samples((1...200).map(Double.init))
        #expect(twoHundred.p99 == 198)
        let few = Samples([3, 1, 2])
        #expect(few.p99 == 3)
        #expect(few.p99IsMaximum)
        #expect(few.minimum == 1 && few.maximum == 3 && few.mean == 2)
    }

    @Test("ratios: value over baseline at the median and at the 99th percentile")
    func ratios() {
        let figure = Figure(id: "x", title: "x", unit: "µs", value: .init(Samples([3, 3, 6])), baseline: .init(Samples([1, 2, 3])))
        #expect(figure.medianRatio == 1.5)
        #expect(figure.p99Ratio == 2)
        let single = Figure(id: "y", title: "y", unit: "edits/s", value: .init(single: 10), baseline: .init(single: 4))
        #expect(single.medianRatio == 2.5)
        #expect(single.p99Ratio == nil)
    }

    @Test("measurements alternate in rounds after every body's warm-up")
    func interleaving() throws {
        var calls: [String] = []
        let samples = try Measure.interleaved(count: 4, warmUp: 1, rounds: 2, [
            { calls.append("a"); return 1 },
            { calls.append("b"); return 2 },
        ])
        #expect(calls == ["a", "b", "a", "a", "b", "b", "a", "a", "b", "b"])
        #expect(samples.map(\.count) == [4, 4])
        #expect(samples[1].median == 2)
    }

    @Test("numbers are shown with digits that mean something")
    func formatting() {
        #expect(Report.format(1234.5, "µs") == "1234 µs")
        #expect(Report.format(12.34, "ms") == "12.3 ms")
        #expect(Report.format(1.234, "ms") == "1.23 ms")
        #expect(Report.format(0.1234, "ms") == "0.123 ms")
    }
}
