import DeckModel
import DeckSnapshots
import Foundation

/// Figure 7: the snapshot of the large layout — its size on disk against its
/// raw JSON, and how long a durable write of it takes against writing the
/// same file bytes with the durability floor's steps.
extension Bench {
    /// The bytes of the file the snapshot store writes for `layout`.
    func snapshotFileBytes(profile: String, layout: DeckLayout) throws -> [UInt8] {
        let state = try folder("snapshot-\(profile)-\(UInt32.random(in: 0...UInt32.max))")
        let store = try SnapshotStore(stateDirectory: state)
        let commit = try store.write(SnapshotEntry(profile: profile, revision: 1, reason: "load", source: nil,
                                                   layout: EncodedLayout(layout)))
        guard let generation = commit.written.first?.generation else { throw BenchError.setup("the snapshot store wrote nothing") }
        let name = String(format: "%010d.json.gz", generation)
        return Array(try Data(contentsOf: URL(fileURLWithPath: store.snapshotsDirectory + "/" + profile + "/" + name)))
    }

    func measureSnapshots() throws {
        let encoded = EncodedLayout(large.layout)
        let json = encoded.json(for: large.layout) ?? []
        let file = try snapshotFileBytes(profile: "large", layout: large.layout)
        record(Figure(id: "snapshot.size", title: "snapshot of the large layout on disk", unit: "KB",
                      value: .init(single: Double(file.count) / 1_000), baselineLabel: "its raw layout JSON",
                      baseline: .init(single: Double(json.count) / 1_000),
                      note: "\(large.layout.buttonCount) buttons; gzip level 6"))

        let store = try SnapshotStore(stateDirectory: try folder("snapshot-writes"))
        let floor = try DurableFile(folder: try folder("snapshot-floor"), name: "large.json.gz")
        var revision = 0
        let samples = try Measure.interleaved(count: plan.largeSnapshotWrites.count, warmUp: plan.largeSnapshotWrites.warmUp, [
            {
                revision += 1
                let entry = SnapshotEntry(profile: "large", revision: revision, reason: "moveButton", source: nil, layout: encoded)
                return try BenchClock.time { _ = try store.write(entry) }
            },
            {
                let elapsed = try BenchClock.time { try floor.write(file) }
                floor.removeOld()
                return elapsed
            },
        ])
        record(Figure(id: "snapshot.write", title: "durable snapshot write, large layout", unit: "ms",
                      value: .init(samples[0].scaled(by: 1e-3)), baselineLabel: "same file bytes, durable (floor)",
                      baseline: .init(samples[1].scaled(by: 1e-3)),
                      note: "the host hands the store the layout's JSON (encoded once per revision for its broadcasts); "
                        + "deflate level 6 and the store's bookkeeping are the difference"))
        try measureJournalRecovery()
    }
}
