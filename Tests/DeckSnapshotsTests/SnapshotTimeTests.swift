import DeckTestSupport
import Foundation
import Testing
@testable import DeckSnapshots

@Suite("The snapshot's time field")
struct SnapshotTimeTests {
    @Test("known instants", arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_795_970_400.0, "2026-11-29T16:40:00Z"),
        (951_782_399.9, "2000-02-28T23:59:59Z"),
        (951_868_800.0, "2000-03-01T00:00:00Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59Z"),
        (-62_135_596_800.0, "0001-01-01T00:00:00Z"),
    ])
    func known(seconds: Double, text: String) {
        #expect(SnapshotTime.format(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test("format and parse agree on random instants across four centuries")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 1970)
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -2_208_988_800...10_413_792_000, using: &random))
            let text = SnapshotTime.format(Date(timeIntervalSince1970: seconds))
            #expect(text.utf8.count == 20)
            #expect(try #require(SnapshotTime.parse(text)).timeIntervalSince1970 == seconds, "\(text)")
        }
    }
}
