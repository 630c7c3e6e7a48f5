/// The reference for concurrent edits: SQLite (through python3's sqlite3) in
/// WAL mode with synchronous=FULL, committing one small row per transaction
/// on the same disk, in the same run.
extension Bench {
    /// Commits per second and the latency of each commit, in µs.
    package struct SQLiteReference {
        package var commitsPerSecond: Double
        package var latencies: Samples
        package var seconds: Double
        package var settings: String
    }

    /// One run of `seconds` on a new database.
    func sqliteReference(seconds: Double) throws -> SQLiteReference {
        let database = try folder("sqlite-\(UInt32.random(in: 0...UInt32.max))") + "/edits.db"
        let result = try Python.run(Python.sqlite, [database, String(seconds), "50", database + ".out.json"],
                                    in: work.path)
        guard let latencies = result["latencies_us"] as? [Double], let seconds = result["seconds"] as? Double, seconds > 0 else {
            throw BenchError.setup("the SQLite script gave no figures")
        }
        let mode = result["journal_mode"] as? String ?? "?"
        let sync = (result["synchronous"] as? Int).map { $0 == 2 ? "FULL" : "\($0)" } ?? "?"
        return SQLiteReference(commitsPerSecond: Double(latencies.count) / seconds, latencies: Samples(latencies),
                               seconds: seconds, settings: "journal_mode=\(mode), synchronous=\(sync)")
    }

    /// Phase 1 figure: the reference alone (the host's concurrent edits are compared with it when deckd exists).
    func measureSQLite() throws {
        let reference = try sqliteReference(seconds: plan.concurrentSeconds)
        record(Figure(id: "reference.sqlite", title: "SQLite WAL FULL, one row per transaction (reference)",
                      unit: "commits/s", value: .init(single: reference.commitsPerSecond), higherIsBetter: true,
                      note: "\(reference.settings); commit latency median \(Int(reference.latencies.median)) µs, "
                        + "p99 \(Int(reference.latencies.p99)) µs"))
    }
}
