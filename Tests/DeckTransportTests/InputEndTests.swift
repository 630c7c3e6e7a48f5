import Foundation
import Testing
@testable import DeckTransport

/// Answers every line a moment later — as the host answers an edit once its
/// snapshot is on disk — in arrival order, and closes after the input ended
/// once every answer is out.
final class LaterHandler: ConnectionHandler {
    let log: EventLog
    let loop: EventLoop
    /// Answers not sent yet, oldest first.
    private var owed: [(Connection, OutboundLine?)] = []
    private var ended: Set<ConnectionID> = []

    init(log: EventLog, loop: EventLoop) {
        self.log = log
        self.loop = loop
    }

    func connectionOpened(_ connection: Connection) {
        log.append(.opened(connection.id, connection.peer))
    }

    func connection(_ connection: Connection, received line: Data) {
        log.append(.line(connection.id, String(decoding: line, as: UTF8.self)))
        owed.append((connection, try? OutboundLine("later: " + String(decoding: line, as: UTF8.self))))
        // Each timer answers the oldest line, so the order holds whatever order timers fire in.
        _ = loop.schedule(after: .milliseconds(5)) { [self] in
            let (connection, reply) = owed.removeFirst()
            if let reply { connection.send(reply) }
            closeIfAnswered(connection)
        }
    }

    func connectionInputEnded(_ connection: Connection) {
        ended.insert(connection.id)
        closeIfAnswered(connection)
    }

    private func closeIfAnswered(_ connection: Connection) {
        guard ended.contains(connection.id), !owed.contains(where: { $0.0 === connection }) else { return }
        connection.closeAfterFlush()
    }

    func connectionClosed(_ connection: Connection, reason: CloseReason) {
        log.append(.closed(connection.id, reason))
    }

    func connectionRejected(from peer: SocketAddress, by listener: Listener) {
        log.append(.rejected(peer))
    }
}

@Suite("The end of a client's input: replies owed are still sent")
struct InputEndTests {
    /// A loop on its own thread serving TCP with a ``LaterHandler``.
    private func laterServer(_ limits: ConnectionLimits = ConnectionLimits()) throws -> (EventLoop, EventLog, Endpoint) {
        let loop = try EventLoop.spawn(name: "later-loop")
        let log = EventLog()
        do {
            let endpoint = try loop.sync {
                try loop.listen(on: .tcp(host: "127.0.0.1", port: 0), limits: limits,
                                handler: LaterHandler(log: log, loop: loop)).endpoint
            }
            return (loop, log, endpoint)
        } catch {
            loop.stop()
            loop.waitUntilStopped()
            throw error
        }
    }

    @Test func aHalfClosedClientGetsRepliesMadeAfterItsEOF() throws {
        let (loop, log, endpoint) = try laterServer()
        defer { loop.stop(); loop.waitUntilStopped() }
        let client = try LineClient(connectingTo: endpoint)
        try client.write(Array("a\nb\nc\nunfinished".utf8))
        client.shutdownSending()
        for expected in ["later: a", "later: b", "later: c"] { #expect(try client.readText() == expected) }
        #expect(client.waitForClose())
        let id = try #require(log.openedIDs.first)
        #expect(log.wait { _ in log.closeReason(of: id) == .peerClosed })
        #expect(!log.all.contains(.line(id, "unfinished")))
    }

    @Test func repliesBeforeATooLongLineGoOutBeforeTooLarge() throws {
        var limits = ConnectionLimits(maxLineBytes: 64)
        limits.tooLargeReply = try OutboundLine("tooLarge")
        let (loop, log, endpoint) = try laterServer(limits)
        defer { loop.stop(); loop.waitUntilStopped() }
        let client = try LineClient(connectingTo: endpoint)
        try client.write(Array("a\nb\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 100) + Array("\nc\n".utf8))
        for expected in ["later: a", "later: b", "tooLarge"] { #expect(try client.readText() == expected) }
        #expect(client.waitForClose())
        let id = try #require(log.openedIDs.first)
        #expect(log.wait { _ in log.closeReason(of: id) == .lineTooLong(limit: 64) })
        #expect(!log.all.contains(.line(id, "c")))
    }
}
