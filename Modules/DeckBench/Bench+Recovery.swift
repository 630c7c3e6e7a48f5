import DeckModel
import DeckSnapshots
import Foundation

/// Issue 28: recovering a profile whose journal holds `plan.journalRecords`
/// records (a segment that was never checkpointed), against reading the
/// segment's bytes alone.
extension Bench {
    func measureJournalRecovery() throws {
        let state = try folder("journal-recovery")
        let layout = EncodedLayout(desk.layout)
        var segment = ""
        do {
            let store = try SnapshotStore(stateDirectory: state, keep: 1_000_000, journal: JournalSettings())
            try store.write(SnapshotEntry(profile: "desk", revision: 1, reason: "load", source: nil, layout: layout))
            store.maintain()  // starts the segment; no more maintenance, so no checkpoint cuts it short
            var revision = 1
            while revision <= plan.journalRecords {
                let batch = (0..<min(256, plan.journalRecords - revision + 1)).map {
                    SnapshotEntry(profile: "desk", revision: revision + 1 + $0, reason: "moveButton", source: nil, layout: layout)
                }
                let commit = store.write(batch)
                if let failure = commit.failure { throw BenchError.setup("could not fill the journal: \(failure)") }
                revision += batch.count
            }
            segment = store.snapshotsDirectory + "/desk/0000000001.journal"
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int) ?? 0
        let samples = try Measure.interleaved(count: 5, warmUp: 1, [
            {
                try BenchClock.time {
                    let store = try SnapshotStore(stateDirectory: state, keep: 1_000_000, journal: JournalSettings())
                    guard try store.newest(profile: "desk").snapshot != nil else { throw BenchError.setup("nothing recovered") }
                }
            },
            { try BenchClock.time { _ = try Data(contentsOf: URL(fileURLWithPath: segment)) } },
        ])
        record(Figure(id: "journal.recovery", title: "recovery of a \(plan.journalRecords)-record journal", unit: "ms",
                      value: .init(samples[0].scaled(by: 1e-3)), baselineLabel: "reading the segment's bytes (floor)",
                      baseline: .init(samples[1].scaled(by: 1e-3)), target: "≤ 200 ms",
                      verdict: samples[0].median <= 200_000 ? .met : .missed,
                      note: "open the store, scan and check every record (CRC-32C, format 3), read the newest; "
                        + "\(size / 1_000_000) MB segment of the desk layout, page cache warm"))
    }
}
