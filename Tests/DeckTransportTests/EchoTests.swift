import Foundation
import Synchronization
import Testing
@testable import DeckTransport

@Suite("lines over real sockets")
struct EchoTests {
    @Test func splitWritesMakeWholeLines() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let client = try server.client()
        // One line in many small writes (TCP_NODELAY: each leaves at once).
        for piece in ["{\"ty", "pe\":", "\"pi", "ng\"}"] { try client.write(Array(piece.utf8)) }
        try client.write([0x0A])
        #expect(try client.readText() == "{\"type\":\"ping\"}")
        // Byte by byte, with the next line starting in the same write as the LF.
        for byte in Array("abc\nd".utf8) { try client.write([byte]) }
        try client.write(Array("ef\n".utf8))
        #expect(try client.readText() == "abc")
        #expect(try client.readText() == "def")
    }

    @Test func coalescedLinesInOneWriteStayInOrder() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let client = try server.client()
        let lines = (0..<500).map { "line \($0) " + String(repeating: "x", count: $0 % 50) }
        try client.write(Array((lines.joined(separator: "\n") + "\n").utf8))
        for expected in lines { #expect(try client.readText() == expected) }
    }

    @Test func linesLargerThanOneReadBuffer() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let client = try server.client()
        let big = String(repeating: "0123456789", count: 30_000)  // 300 kB, several reads
        #expect(try client.roundTrip(big) == big)
        #expect(try client.roundTrip("after") == "after")
    }

    @Test func peerAddressIsLoopback() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let client = try server.client()
        _ = try client.roundTrip("hi")
        let peer = try server.onLoop { handler in handler.connections.values.first?.peer }
        #expect(peer?.family == .ipv4)
        #expect(peer?.host == "127.0.0.1")
        #expect(peer?.isLoopback == true)
        #expect(server.address.port > 0)
    }

    @Test func twoHundredConcurrentClients() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let clients = 200, rounds = 20
        let completed = Atomic<Int>(0)
        try onThreads(clients) { index in
            let client = try server.client(timeout: .seconds(20))
            for round in 0..<rounds {
                let request = "client \(index) round \(round)"
                let reply = try client.roundTrip(request, timeout: .seconds(20))
                guard reply == request else { throw TestFailure("client \(index) got '\(reply)' for '\(request)'") }
                completed.add(1, ordering: .relaxed)
            }
            client.close()
        }
        #expect(completed.load(ordering: .relaxed) == clients * rounds)
        #expect(server.log.wait { events in events.filter { if case .closed = $0 { true } else { false } }.count == clients })
        #expect(server.log.openedIDs.count == clients)
    }

    @Test func oneSharedLineReachesEveryClient() throws {
        // "broadcast" sends one OutboundLine object to every connection.
        let server = try TestServer.start { connection, line, handler in
            guard String(decoding: line, as: UTF8.self) == "broadcast", let shared = try? OutboundLine("layout 7") else {
                if let reply = try? OutboundLine(line) { connection.send(reply) }
                return
            }
            for other in handler.connections.values { other.send(shared) }
        }
        defer { server.stop() }
        let clients = try (0..<16).map { _ in try server.client() }
        for client in clients { _ = try client.roundTrip("ready") }
        try clients[0].send("broadcast")
        for client in clients { #expect(try client.readText() == "layout 7") }
    }

    @Test func halfClosedClientStillGetsItsReplies() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let client = try server.client()
        try client.write(Array("one\ntwo\n".utf8))
        client.shutdownSending()
        #expect(try client.readText() == "one")
        #expect(try client.readText() == "two")
        #expect(client.waitForClose())
        let id = try #require(server.log.openedIDs.first)
        #expect(server.log.wait { _ in server.log.closeReason(of: id) == .peerClosed })
    }

    @Test func closeAfterFlushDeliversTheLastLineThenEOF() throws {
        let server = try TestServer.start { connection, line, _ in
            if let reply = try? OutboundLine("bye: " + String(decoding: line, as: UTF8.self)) { connection.send(reply) }
            connection.closeAfterFlush()
            if let ignored = try? OutboundLine("ignored") { #expect(!connection.send(ignored)) }
        }
        defer { server.stop() }
        let client = try server.client()
        // The second line arrives in the same read but is not delivered.
        try client.write(Array("first\nsecond\n".utf8))
        #expect(try client.readText() == "bye: first")
        #expect(client.waitForClose())
        let id = try #require(server.log.openedIDs.first)
        #expect(server.log.wait { _ in server.log.closeReason(of: id) == .closedByHost })
        #expect(!server.log.all.contains(.line(id, "second")))
    }

    @Test func writesToAVanishedPeerDoNotKillTheProcess() throws {
        // Without MSG_NOSIGNAL the EPIPE write here would raise SIGPIPE and end the test run.
        let server = try TestServer.start { connection, _, _ in
            guard let chunk = try? OutboundLine(String(repeating: "z", count: 60_000)) else { return }
            for _ in 0..<64 { connection.send(chunk) }
        }
        defer { server.stop() }
        for _ in 0..<5 {
            let client = try server.client()
            try client.send("flood me")
            client.close()
        }
        #expect(server.log.wait { $0.filter { if case .closed = $0 { true } else { false } }.count == 5 })
        let survivor = try server.client()
        try survivor.send("still here")
        #expect(try survivor.readLine().count == 60_000)
    }
}
