import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
@testable import DeckTransport

/// A client that sends and never reads is not read either once its unread
/// output passes the high-water mark (issue 18 §3): TCP holds it back, so it
/// costs the host no work and at most the mark in memory. Without the mark
/// the same client was answered until the output limit closed it.
@Suite("Backpressure on a client that does not read")
struct BackpressureTests {
    static let high = 64 << 10
    /// Each request is answered with 4 KiB: 5,000 requests ask for 20 MB,
    /// far past the 8 MiB output limit if every one were answered unread.
    static let reply = try? OutboundLine(String(repeating: "r", count: 4 * 1024 - 1))
    static let requests = 5_000

    static let behavior: LineBehavior = { connection, _, handler in
        handler.counters["asked", default: 0] += 1
        if let reply { connection.send(reply) }
    }

    private struct Observed: Sendable {
        var held = false
        var open = false
        var queued = 0
        var asked = 0
    }

    private func observe(_ server: TestServer, _ id: ConnectionID) throws -> Observed {
        try server.onLoop { handler in
            guard let connection = handler.connections[id] else { return Observed(asked: handler.counters["asked"] ?? 0) }
            return Observed(held: connection.isReadingHeldByOutput, open: connection.isOpen,
                            queued: connection.queuedOutputBytes, asked: handler.counters["asked"] ?? 0)
        }
    }

    @Test func aClientThatNeverReadsIsHeldBackThenServedInFullOnceItReads() throws {
        let server = try TestServer.start(limits: ConnectionLimits(outputHighWater: Self.high), behavior: Self.behavior)
        defer { server.stop() }
        let client = try server.client()
        #expect(server.log.wait { _ in server.log.openedIDs.count == 1 })
        let id = server.log.openedIDs[0]

        // The requests go out on their own thread: once the host stops reading,
        // the write blocks until the client reads.
        let written = DispatchSemaphore(value: 0)
        let writeError = Mutex<String?>(nil)
        let burst = Array(String(repeating: "ask\n", count: Self.requests).utf8)
        let writer = WriterHandoff(client)
        Thread.detachNewThread {
            do { try writer.client.write(burst, timeout: .seconds(120)) } catch { writeError.withLock { $0 = "\(error)" } }
            written.signal()
        }

        #expect(server.log.wait(timeout: .seconds(60)) { _ in (try? observe(server, id).held) == true })
        let held = try observe(server, id)
        #expect(held.open, "held back, not closed")
        #expect(held.asked < Self.requests, "the host stopped reading: \(held.asked) of \(Self.requests) requests taken")
        #expect(held.queued <= Self.high + 4 * 1024, "output queued stops at the mark: \(held.queued) bytes")
        // Nothing more is read while nothing is: a loop turn later it is the same.
        let later = try observe(server, id)
        #expect(later.asked == held.asked && later.held)

        // Once it reads, every request is answered, in full and in order.
        var replies = 0
        while replies < Self.requests {
            let line = try client.readLine(timeout: .seconds(30))
            guard line.count == 4 * 1024 - 1, line.allSatisfy({ $0 == UInt8(ascii: "r") }) else {
                Issue.record("reply \(replies) was \(line.count) bytes")
                return
            }
            replies += 1
        }
        #expect(written.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(writeError.withLock { $0 } == nil)
        let done = try observe(server, id)
        #expect(done.asked == Self.requests && done.open && !done.held)
        #expect(server.log.closedCount == 0)
    }

    @Test func theMarkMustBeWithinTheOutputLimit() {
        for bad in [1, (8 << 20) + 1] {
            #expect(throws: TransportError.self) { try ConnectionLimits(outputHighWater: bad).validate() }
        }
    }
}
