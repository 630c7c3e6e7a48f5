import DeckProtocol
import Foundation
import Glibc
import Synchronization

/// Issue 18 §3: a healthy client's ping while 10 clients, each on its own
/// thread and socket, flood pings and never read their replies; as a ratio
/// to the same ping with nobody flooding. Also deckd's RSS during and after.
extension Bench {
    func measureFlood(deckd: String) throws {
        let host = try startDeskHost(deckd: deckd, name: "flood")
        defer { host.stop() }
        let healthy = try BenchDevice(port: host.port, name: "healthy")
        let count = 400
        _ = try pings(healthy, count: count / 4)  // warm-up
        let quiet = Samples(try pings(healthy, count: count))
        let stop = Atomic<Bool>(false)
        let sockets = Mutex<[Int32]>([])
        let joined = Atomic<Int>(0)
        let port = host.port
        let line = ClientMessage(id: .int(1), .ping).line()
        let burst = Array((0..<256).map { _ in line }.joined())
        let threads = (0..<10).map { index in
            Thread {
                // Each flooder's device lives on its own thread. Blocking sends:
                // once deckd stops reading (its replies fill the queue) the
                // send waits, or fails when deckd or the bench shuts it.
                guard let flooder = try? BenchDevice(port: port, name: "flooder \(index)") else { return }
                sockets.withLock { $0.append(flooder.socket.fd) }
                joined.add(1, ordering: .relaxed)
                while !stop.load(ordering: .relaxed) {
                    do { try flooder.socket.send(burst) } catch { break }
                }
                withExtendedLifetime(flooder) {}
            }
        }
        for thread in threads { thread.start() }
        let deadline = BenchClock.now() + 10_000_000_000
        while joined.load(ordering: .relaxed) < threads.count, BenchClock.now() < deadline { usleep(10_000) }
        usleep(300_000)  // the flooders' queues fill
        let flooded = Samples(try pings(healthy, count: count))
        let duringKB = host.residentKB()
        stop.store(true, ordering: .relaxed)
        for fd in sockets.withLock({ $0 }) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        usleep(500_000)
        let afterKB = host.residentKB()
        let p99 = flooded.p99 / 1_000
        record(Figure(id: "flood.ping", title: "healthy ping while 10 clients flood and never read", unit: "µs",
                      value: .init(flooded), baselineLabel: "the same ping, nobody flooding", baseline: .init(quiet),
                      target: "p99 ≤ 5 ms", verdict: p99 <= 5 ? .met : .missed,
                      note: "10 flooder threads, each its own socket, sending 256 pings a write and reading nothing"))
        record(Figure(id: "flood.rss", title: "resident memory during the flood, and after", unit: "MB",
                      value: .init(single: Double(duringKB) / 1_024), note: String(format: "%.1f MB once the flooders left", Double(afterKB) / 1_024)))
    }

    /// Round-trip times (µs) of `count` pings, one at a time.
    private func pings(_ device: BenchDevice, count: Int) throws -> [Double] {
        var times: [Double] = []
        for index in 0..<count {
            let id = 1_000_000 + index
            let start = BenchClock.now()
            try device.socket.send(ClientMessage(id: .int(id), .ping).line())
            let prefix = Array(#"{"type":"pong","id":\#(id)"#.utf8)
            while true {
                guard let line = try device.socket.readLine() else { throw BenchError.setup("deckd closed the healthy client") }
                if line.starts(with: prefix) { break }
            }
            times.append(Double(BenchClock.now() - start) / 1_000)
        }
        return times
    }
}
