import Foundation
import Glibc
import Synchronization
import Testing
@testable import DeckTransport

/// A client that never reads must be closed at the output limit, and must
/// not slow anyone else down meanwhile — measured here, not assumed.
@Suite("a client that never reads")
struct OutputLimitTests {
    static let chunk = try? OutboundLine(String(repeating: "#", count: 256 * 1024))
    static let limit = 4 << 20

    /// "fill" queues a 256 KiB line for the sender; anything else is echoed.
    static let behavior: LineBehavior = { connection, line, handler in
        if String(decoding: line, as: UTF8.self) == "fill", let chunk {
            handler.counters["fill", default: 0] += 1
            connection.send(chunk)
        } else if let reply = try? OutboundLine(line) {
            connection.send(reply)
        }
    }

    /// `clients` threads each doing `rounds` request/reply round trips; returns the wall time.
    private func roundTrips(_ server: TestServer, clients: Int = 8, rounds: Int = 150) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try onThreads(clients) { index in
            let client = try server.client()
            for round in 0..<rounds {
                let request = "\(index)/\(round)"
                let reply = try client.roundTrip(request, timeout: .seconds(10))
                guard reply == request else { throw TestFailure("expected \(request), got \(reply)") }
            }
        }
        return clock.now - start
    }

    /// The stalled client's connection as the server sees it.
    private func stalledState(_ server: TestServer, _ id: ConnectionID) throws -> (open: Bool, queued: Int) {
        try server.onLoop { handler in
            guard let connection = handler.connections[id] else { return (false, 0) }
            return (connection.isOpen, connection.queuedOutputBytes)
        }
    }

    @Test func othersKeepTheirPaceAndTheStalledClientIsClosedAtTheLimit() throws {
        let server = try TestServer.start(limits: ConnectionLimits(maxQueuedOutputBytes: Self.limit), behavior: Self.behavior)
        defer { server.stop() }
        _ = try roundTrips(server, rounds: 20)  // warm up
        let baseline = try roundTrips(server)

        // The stalled client asks for output it never reads; a small receive
        // buffer makes the backlog land in the host's queue quickly.
        let stalled = try server.client()
        var small: Int32 = 4096
        setsockopt(stalled.fileDescriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        try stalled.send("hello")
        #expect(server.log.wait { $0.contains { if case let .line(_, text) = $0 { text == "hello" } else { false } } })
        let stalledID = try #require(server.log.all.compactMap { event -> ConnectionID? in
            if case let .line(id, "hello") = event { return id } else { return nil }
        }.first)
        var fills = 0
        var state = try stalledState(server, stalledID)
        while state.queued < 1 << 20 && fills < 64 {
            try stalled.send("fill")
            fills += 1
            let expected = fills
            #expect(server.log.wait { _ in (try? server.onLoop { $0.counters["fill"] ?? 0 }) == expected })
            state = try stalledState(server, stalledID)
        }
        #expect(state.open && state.queued >= 1 << 20, "the host should hold a backlog for the stalled client")

        // Everyone else, while that backlog sits in the host.
        let withStall = try roundTrips(server)
        state = try stalledState(server, stalledID)
        #expect(state.open && state.queued >= 1 << 20, "the stalled client must still be connected, unread")
        #expect(withStall <= baseline * 3 + .milliseconds(500),
                "round trips took \(withStall) with a stalled client vs \(baseline) without")

        // Past the limit it is closed, and only it.
        while server.log.closeReason(of: stalledID) == nil && fills < 200 {
            do { try stalled.send("fill") } catch { break }
            fills += 1
            _ = server.log.wait(timeout: .seconds(2)) { _ in
                server.log.closeReason(of: stalledID) != nil || (try? server.onLoop { $0.counters["fill"] ?? 0 }) == fills
            }
        }
        #expect(server.log.wait { _ in server.log.closeReason(of: stalledID) == .outputLimit(limit: Self.limit) })
        #expect(server.log.closedCount == 1 + 8 * 3, "only the stalled client (and the finished round-trip clients) closed")
        _ = try roundTrips(server, rounds: 10)
    }

    @Test func aBroadcastNeverWaitsForTheSlowestClient() throws {
        // Rounds of one shared 1 MiB broadcast (4 lines) to everyone: readers
        // get every copy, the non-reader's backlog grows by a round each time
        // until it is dropped at the limit, and no round waits for it.
        let server = try TestServer.start(limits: ConnectionLimits(maxQueuedOutputBytes: Self.limit)) { _, line, handler in
            guard String(decoding: line, as: UTF8.self) == "go", let chunk = Self.chunk else { return }
            for _ in 0..<4 { for connection in handler.connections.values { connection.send(chunk) } }
        }
        defer { server.stop() }
        let readers = try (0..<4).map { _ in try server.client() }
        let stalled = try server.client()
        var small: Int32 = 4096
        setsockopt(stalled.fileDescriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        #expect(server.log.wait { _ in server.log.openedIDs.count == 5 })
        let stalledID = server.log.openedIDs[4]
        let counts = Mutex([Int](repeating: 0, count: 4))
        let shared = readers.map(WriterHandoff.init)
        for _ in 0..<12 {
            try readers[0].send("go")
            try onThreads(4) { index in
                for _ in 0..<4 {
                    let line = try shared[index].client.readLine(timeout: .seconds(10))
                    guard line.count == 256 * 1024 else { throw TestFailure("short line") }
                    counts.withLock { $0[index] += 1 }
                }
            }
        }
        #expect(counts.withLock { $0 } == [48, 48, 48, 48])
        #expect(server.log.wait { _ in server.log.closeReason(of: stalledID) == .outputLimit(limit: Self.limit) })
        #expect(server.log.closedCount == 1)
    }
}
