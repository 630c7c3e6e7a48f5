import DeckModel
import Foundation
import Synchronization

/// Figure 3: eight devices editing as fast as each can (one edit in flight
/// per device, the next sent when its `ok` arrives) against SQLite's commit
/// rate on the same disk. The two alternate in two rounds each, so both see
/// the same disk: this one is shared, and its speed drifts.
extension Bench {
    typealias Slot = (page: Int, index: Int)

    func measureConcurrentEdits(deckd: String) throws {
        let host = try startDeskHost(deckd: deckd, name: "concurrent")
        defer { host.stop() }
        let count = plan.concurrentDevices
        let pairs = disjointPairs(in: desk.layout)
        guard pairs.count >= count else { throw BenchError.setup("the desk profile has too few buttons for \(count) devices") }
        var editors: [Editor] = []
        for index in 0..<count {
            editors.append(Editor(device: try BenchDevice(port: host.port, name: "editor \(index)"), from: pairs[index].0, to: pairs[index].1))
        }

        let rounds = 2
        let window = plan.concurrentSeconds / Double(rounds)
        let snapshot = try deskSnapshotBytes
        let disk = try DurableFile(folder: try folder("group-commit-floor"), name: "unused")
        _ = try runEditors(editors, seconds: window / 5)  // warm-up
        var edits = 0, latencies: [Double] = [], hostSeconds = 0.0
        var commits = 0, commitLatencies: [Double] = [], sqliteSeconds = 0.0, settings = ""
        var floorEdits = 0, floorSeconds = 0.0
        let journal = try AppendFile(folder: try folder("append-floor"), name: "floor.journal")
        var appendEdits = 0, appendSeconds = 0.0
        for _ in 0..<rounds {
            let round = try runEditors(editors, seconds: window)
            edits += round.latencies.count
            latencies += round.latencies
            hostSeconds += round.seconds
            let reference = try sqliteReference(seconds: window)
            commits += reference.latencies.count
            commitLatencies += reference.latencies.sorted
            sqliteSeconds += reference.seconds
            settings = reference.settings
            let start = BenchClock.now(), stop = start + UInt64(window * 1e9)
            while BenchClock.now() < stop {
                try disk.writeBatch(snapshot, count: count)
                disk.removeOld()
                floorEdits += count
            }
            floorSeconds += Double(BenchClock.now() - start) / 1e9
            let appendStart = BenchClock.now(), appendStop = appendStart + UInt64(window * 1e9)
            while BenchClock.now() < appendStop {
                try journal.append(snapshot, count: count)
                appendEdits += count
            }
            appendSeconds += Double(BenchClock.now() - appendStart) / 1e9
        }
        let appendRate = Double(appendEdits) / appendSeconds
        let rate = Double(edits) / hostSeconds, sqliteRate = Double(commits) / sqliteSeconds
        let floorRate = Double(floorEdits) / floorSeconds
        record(Figure(id: "edits.concurrent", title: "concurrent edits, \(count) devices", unit: "edits/s",
                      value: .init(single: rate), baselineLabel: "SQLite WAL FULL, 1 row/transaction (reference)",
                      baseline: .init(single: sqliteRate), higherIsBetter: true,
                      target: "≥ SQLite's commits/s", verdict: rate >= sqliteRate ? .met : .missed,
                      note: String(format: "%d rounds of %.1f s each, alternating with SQLite; every edit durable before its ok; %@",
                                   rounds, window, settings)))
        record(Figure(id: "edits.concurrent.floor", title: "group commit of \(count) snapshot files, bare (floor)",
                      unit: "edits/s", value: .init(single: floorRate), baselineLabel: "SQLite WAL FULL, 1 row/transaction (reference)",
                      baseline: .init(single: sqliteRate), higherIsBetter: true,
                      note: "batches of \(count) new files of the same \(snapshot.count) snapshot bytes: create, write, one syncfs, "
                        + "rename, one folder fsync; no host, no network: the most a file per generation allows"))
        record(Figure(id: "edits.concurrent.append", title: "concurrent edits vs the bare append floor",
                      unit: "edits/s", value: .init(single: rate),
                      baselineLabel: "batches of \(count) records, one pwrite + one fdatasync (floor)",
                      baseline: .init(single: appendRate), higherIsBetter: true,
                      target: "≥ 0.8× the append floor", verdict: rate >= 0.8 * appendRate ? .met : .missed,
                      note: "the floor appends \(count) records of the same \(snapshot.count) bytes to one existing file "
                        + "and flushes once, in the same windows: the most an append journal allows"))
        record(Figure(id: "edits.concurrent.latency", title: "concurrent edits, latency of one edit", unit: "µs",
                      value: .init(Samples(latencies)), baselineLabel: "one SQLite commit (reference)",
                      baseline: .init(Samples(commitLatencies))))
    }

    /// Pairs of filled slots on one page, no slot in two pairs.
    private func disjointPairs(in layout: DeckLayout) -> [(Slot, Slot)] {
        let placed: [Slot] = layout.placedButtons.map { ($0.page, $0.index) }
        var pairs: [(Slot, Slot)] = []
        var next = 0
        while next + 1 < placed.count {
            if placed[next].page == placed[next + 1].page {
                pairs.append((placed[next], placed[next + 1]))
                next += 2
            } else {
                next += 1
            }
        }
        return pairs
    }

    /// Every editor on its own thread, each moving its button back and forth
    /// for `seconds`. Returns each edit's latency (µs) and the real duration.
    private func runEditors(_ editors: [Editor], seconds: Double) throws -> (latencies: [Double], seconds: Double) {
        let results = Mutex<[Double]>([])
        let failure = Mutex<String?>(nil)
        let start = BenchClock.now()
        let stop = start + UInt64(seconds * 1e9)
        let group = DispatchGroup()
        for editor in editors {
            let box = SendableBox(editor)
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var mine: [Double] = []
                do {
                    try box.value.edit(until: stop) { mine.append($0) }
                } catch {
                    failure.withLock { $0 = $0 ?? "\(error)" }
                }
                let finished = mine
                results.withLock { $0 += finished }
            }
        }
        group.wait()
        let elapsed = Double(BenchClock.now() - start) / 1e9
        if let failure = failure.withLock({ $0 }) { throw BenchError.setup("a device failed: \(failure)") }
        return (results.withLock { $0 }, elapsed)
    }
}

/// One device of the concurrent figure and the two slots it owns.
final class Editor {
    let device: BenchDevice
    var from: Bench.Slot
    var to: Bench.Slot

    init(device: BenchDevice, from: Bench.Slot, to: Bench.Slot) {
        self.device = device
        self.from = from
        self.to = to
    }

    /// Moves the button back and forth until `stop`, reporting each edit's latency (µs).
    func edit(until stop: UInt64, _ report: (Double) -> Void) throws {
        while BenchClock.now() < stop {
            let (line, id) = try device.moveLine(from: from, to: to)
            let sent = BenchClock.now()
            try device.socket.send(line)
            let revision = try device.awaitOK(id: id)
            report(BenchClock.microseconds(since: sent))
            device.applied(from: from, to: to, revision: revision)
            swap(&from, &to)
        }
    }
}

/// Hands an object to exactly one other thread, which is its only user until
/// that thread ends (the creating thread waits for it and does not touch the
/// object meanwhile) — the one use in this module.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
