import DeckProtocol
import Foundation
import Glibc

/// Issue 18 §3: a healthy client's ping while 10 clients, each in its own
/// process on its own socket, flood pings and never read their replies; as a
/// ratio to the same ping with nobody flooding (the floor). Every ping from
/// the moment the flooders start counts, so the figure includes what the
/// flood costs before deckd holds the flooders back (docs/transport.md).
/// Also deckd's CPU time and RSS during the flood, and its RSS after.
extension Bench {
    func measureFlood(deckd: String) throws {
        let host = try startDeskHost(deckd: deckd, name: "flood")
        defer { host.stop() }
        let healthy = try BenchDevice(port: host.port, name: "healthy")
        let window: UInt64 = options.quick ? 1_000_000_000 : 4_000_000_000
        _ = try pings(healthy, count: 100)  // warm-up
        // The floor: as many seconds of the same pings as each half of the flood.
        let cpuBeforeQuiet = host.cpu().nanoseconds
        var quietTimes: [Double] = []
        let quietStart = BenchClock.now()
        while BenchClock.now() - quietStart < window / 2 { quietTimes.append(try ping(healthy, id: 1_000_000 + quietTimes.count)) }
        let quiet = Samples(quietTimes)
        let quietCPUPerPing = Double(host.cpu().nanoseconds &- cpuBeforeQuiet) / 1_000 / Double(max(quietTimes.count, 1))

        // The flooders are this program again (`--flooder`, below), so each
        // is a process of its own as in the issue; pinging starts as they do.
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let start = BenchClock.now()
        let cpuAtStart = host.cpu().nanoseconds
        let flooders = try (0..<10).map { index in
            try Child(program, ["--flooder", "\(host.port)", "flooder \(index)"], watchFor: "flooding")
        }
        // SIGKILL: a flooder inherits its starter's signal mask, and a test
        // thread that starts deck-bench may have SIGTERM blocked.
        defer {
            for flooder in flooders { flooder.signal(SIGKILL) }
            for flooder in flooders { _ = flooder.wait() }
        }
        var all: [Double] = []
        var secondHalf: [Double] = []
        var cpuAtHalf: UInt64?
        var id = 2_000_000
        while BenchClock.now() - start < window {
            let time = try ping(healthy, id: id)
            id += 1
            all.append(time)
            if BenchClock.now() - start >= window / 2 {
                if cpuAtHalf == nil { cpuAtHalf = host.cpu().nanoseconds }
                secondHalf.append(time)
            }
        }
        let cpuAtEnd = host.cpu().nanoseconds
        let duringKB = host.residentKB()
        if let late = flooders.first(where: { $0.waitForLine(timeout: 0) == nil }) {
            throw BenchError.setup("a flooder never flooded: \(late.text.suffix(400))")
        }
        for flooder in flooders { flooder.signal(SIGKILL) }
        usleep(500_000)
        let afterKB = host.residentKB()

        let seconds = Double(window) / 1e9
        let p99 = Samples(all).p99 / 1_000
        record(Figure(id: "flood.ping", title: "healthy ping while 10 clients flood and never read", unit: "µs",
                      value: .init(Samples(all)), baselineLabel: "the same ping, nobody flooding", baseline: .init(quiet),
                      target: "p99 ≤ 5 ms", verdict: p99 <= 5 ? .met : .missed,
                      note: String(format: "every ping of the flood's first %.0f s, from the moment 10 flooder processes "
                                   + "start sending 256 pings a write and reading nothing", seconds)))
        record(Figure(id: "flood.pingHeld", title: "the same, the flood's second half", unit: "µs",
                      value: .init(Samples(secondHalf)), baselineLabel: "the same ping, nobody flooding",
                      baseline: .init(quiet), note: "the flooders are held back by then: deckd reads none of their pings"))
        // The healthy client pings back to back, so deckd is busy with it all
        // along: what the flooders cost is its CPU beyond that, per healthy ping.
        let first = Double((cpuAtHalf ?? cpuAtEnd) &- cpuAtStart) / 1_000
        let second = Double(cpuAtEnd &- (cpuAtHalf ?? cpuAtEnd)) / 1_000
        let firstPings = all.count - secondHalf.count
        record(Figure(id: "flood.cpu", title: "deckd's CPU per healthy ping, the flood's second half", unit: "µs",
                      value: .init(single: second / Double(max(secondHalf.count, 1))),
                      baselineLabel: "the same, nobody flooding", baseline: .init(single: quietCPUPerPing),
                      note: String(format: "the flood's first half: %.0f ms of CPU, %.0f ms beyond its %d healthy pings "
                                   + "(the flooders' lines answered before they were held back)",
                                   first / 1_000, (first - Double(firstPings) * quietCPUPerPing) / 1_000, firstPings)))
        record(Figure(id: "flood.rss", title: "resident memory during the flood, and after", unit: "MB",
                      value: .init(single: Double(duringKB) / 1_024),
                      note: String(format: "%.1f MB once the flooders left", Double(afterKB) / 1_024)))
    }

    /// One flooder (`deck-bench --flooder PORT NAME`, started by ``measureFlood(deckd:)``):
    /// a handshaken device that sends pings, 256 to a write, and reads nothing,
    /// until its socket fails or it is killed. Blocking sends: once deckd
    /// stops reading it, the send waits.
    static func flood(port: UInt16, name: String) -> Int32 {
        guard let flooder = try? BenchDevice(port: port, name: name) else { return 1 }
        try? FileHandle.standardOutput.write(contentsOf: Data("flooding\n".utf8))
        let line = ClientMessage(id: .int(1), .ping).line()
        let burst = Array((0..<256).map { _ in line }.joined())
        while (try? flooder.socket.send(burst)) != nil {}
        return 0
    }

    /// Round-trip times (µs) of `count` pings, one at a time.
    private func pings(_ device: BenchDevice, count: Int) throws -> [Double] {
        try (0..<count).map { try ping(device, id: 900_000 + $0) }
    }

    /// The round trip (µs) of one ping; lines before its pong are skipped.
    private func ping(_ device: BenchDevice, id: Int) throws -> Double {
        let start = BenchClock.now()
        try device.socket.send(ClientMessage(id: .int(id), .ping).line())
        let prefix = Array(#"{"type":"pong","id":\#(id)"#.utf8)
        while true {
            guard let line = try device.socket.readLine() else { throw BenchError.setup("deckd closed the healthy client") }
            if line.starts(with: prefix) { break }
        }
        return Double(BenchClock.now() - start) / 1_000
    }
}
