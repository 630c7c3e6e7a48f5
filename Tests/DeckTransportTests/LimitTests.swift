import Foundation
import Testing
@testable import DeckTransport

@Suite("PROTOCOL.md §9 limits")
struct LimitTests {
    static let tooLarge = try? OutboundLine("{\"type\":\"error\",\"code\":\"tooLarge\"}")
    static let busy = try? OutboundLine("{\"type\":\"error\",\"code\":\"busy\"}")

    /// Sends `bytes` from another thread (the server stops framing mid-line,
    /// so the write may only finish once the server drains what is left).
    private func sendInBackground(_ bytes: [UInt8], to endpoint: Endpoint) throws -> (LineClient, DispatchSemaphore) {
        let client = try LineClient(connectingTo: endpoint)
        let writer = WriterHandoff(client)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            // The server stops reading mid-line and may close before all of it is sent.
            try? writer.client.write(bytes, timeout: .seconds(10))
            done.signal()
        }
        thread.start()
        return (client, done)
    }

    @Test func lineTooLongClosesOnlyThatClient() throws {
        var limits = ConnectionLimits(maxLineBytes: 1024)
        limits.tooLargeReply = Self.tooLarge
        let server = try TestServer.start(limits: limits)
        defer { server.stop() }
        let bystander = try server.client()
        #expect(try bystander.roundTrip("before") == "before")

        let offender = try server.client()
        #expect(try offender.roundTrip(String(repeating: "a", count: 1024)) == String(repeating: "a", count: 1024))
        try offender.write(Array(String(repeating: "b", count: 5000).utf8) + [0x0A] + Array("next\n".utf8))
        #expect(try offender.readText() == "{\"type\":\"error\",\"code\":\"tooLarge\"}")
        #expect(offender.waitForClose())

        #expect(try bystander.roundTrip("after") == "after")
        let ids = server.log.openedIDs
        #expect(server.log.wait { _ in server.log.closeReason(of: ids[1]) == .lineTooLong(limit: 1024) })
        #expect(server.log.closeReason(of: ids[0]) == nil)
        #expect(!server.log.all.contains(.line(ids[1], "next")))
    }

    @Test func defaultLimitIsOneMebibyte() throws {
        var limits = ConnectionLimits()
        limits.tooLargeReply = Self.tooLarge
        #expect(limits.maxLineBytes == 1 << 20)
        let server = try TestServer.start(limits: limits) { _, _, _ in }
        defer { server.stop() }
        // Exactly 1 MiB passes...
        let fits = try server.client()
        try fits.send(String(repeating: "x", count: 1 << 20))
        let ids = { server.log.openedIDs }
        #expect(server.log.wait { events in events.contains { if case let .line(_, text) = $0 { text.utf8.count == 1 << 20 } else { false } } })
        // ...one byte more does not, even while the client is still sending it.
        let (offender, writer) = try sendInBackground(Array(repeating: UInt8(ascii: "y"), count: (1 << 20) + 1 + 3_000_000),
                                                       to: server.endpoint)
        #expect(try offender.readText(timeout: .seconds(10)) == "{\"type\":\"error\",\"code\":\"tooLarge\"}")
        #expect(offender.waitForClose(timeout: .seconds(10)))
        #expect(writer.wait(timeout: .now() + 10) == .success)
        #expect(server.log.wait { _ in server.log.closeReason(of: ids()[1]) == .lineTooLong(limit: 1 << 20) })
        #expect(server.log.closeReason(of: ids()[0]) == nil)
    }

    @Test func busyAtTheConnectionLimit() throws {
        var limits = ConnectionLimits(maxConnections: 3)
        limits.busyReply = Self.busy
        let server = try TestServer.start(limits: limits)
        defer { server.stop() }
        let held = try (0..<3).map { index in
            let client = try server.client()
            #expect(try client.roundTrip("hello \(index)") == "hello \(index)")
            return client
        }
        let refused = try server.client()
        #expect(try refused.readText() == "{\"type\":\"error\",\"code\":\"busy\"}")
        #expect(refused.waitForClose())
        #expect(server.log.wait { $0.contains { if case .rejected = $0 { true } else { false } } })
        // The others are untouched.
        for (index, client) in held.enumerated() { #expect(try client.roundTrip("still \(index)") == "still \(index)") }
        // A slot freed is a slot to take.
        held[0].close()
        #expect(server.log.wait { _ in server.log.closedCount == 1 })
        let next = try server.client()
        #expect(try next.roundTrip("in") == "in")
        #expect(try server.onLoop { _ in server.listener.value.connectionCount } == 3)
    }

    @Test func busyHelloLineFromTheRefusedClientDoesNotLoseTheReply() throws {
        // The refused client has already sent its hello when the host refuses
        // it: the close must still deliver `busy` (no reset from unread input).
        var limits = ConnectionLimits(maxConnections: 1)
        limits.busyReply = Self.busy
        let server = try TestServer.start(limits: limits)
        defer { server.stop() }
        let held = try server.client()
        _ = try held.roundTrip("x")
        for _ in 0..<20 {
            let refused = try server.client()
            try refused.send("{\"type\":\"hello\",\"protocol\":7}")
            #expect(try refused.readText() == "{\"type\":\"error\",\"code\":\"busy\"}")
            #expect(refused.waitForClose())
        }
    }

    @Test func connectionNotEstablishedInTimeIsClosed() throws {
        var limits = ConnectionLimits(establishTimeout: .milliseconds(200))
        limits.establishTimeoutReply = try OutboundLine("{\"type\":\"error\",\"code\":\"handshake\"}")
        let server = try TestServer.start(limits: limits) { connection, line, _ in
            if String(decoding: line, as: UTF8.self) == "hello" { connection.markEstablished() }
            if let reply = try? OutboundLine(line) { connection.send(reply) }
        }
        defer { server.stop() }
        let good = try server.client()
        #expect(try good.roundTrip("hello") == "hello")
        let silent = try server.client()
        let chatty = try server.client()
        #expect(try chatty.roundTrip("not a hello") == "not a hello")

        #expect(try silent.readText() == "{\"type\":\"error\",\"code\":\"handshake\"}")
        #expect(silent.waitForClose())
        #expect(try chatty.readText() == "{\"type\":\"error\",\"code\":\"handshake\"}")
        #expect(chatty.waitForClose())
        // `good` was accepted before the other two, so its timer would have fired first.
        #expect(try good.roundTrip("still open") == "still open")
        let ids = server.log.openedIDs
        #expect(server.log.wait { _ in server.log.closeReason(of: ids[1]) == .notEstablished(timeout: .milliseconds(200)) })
        #expect(server.log.closeReason(of: ids[0]) == nil)
    }

    @Test func establishTimeoutCanBeOff() throws {
        let server = try TestServer.start(limits: ConnectionLimits(establishTimeout: nil))
        defer { server.stop() }
        let client = try server.client()
        _ = try client.roundTrip("x")
        #expect(try server.onLoop { handler in handler.connections.values.first.map { $0.timers[.establish] == nil && !$0.deadlines.isArmed(.establish) } == true })
    }

    @Test func unusableLimitsAreRefused() throws {
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        let bad: [ConnectionLimits] = [
            ConnectionLimits(maxLineBytes: 0), ConnectionLimits(maxConnections: 0),
            ConnectionLimits(maxQueuedOutputBytes: -1), ConnectionLimits(establishTimeout: .zero),
        ]
        for limits in bad {
            #expect(throws: TransportError.self) {
                try loop.sync {
                    let handler = TestHandler(log: EventLog(), behavior: Behaviors.echo)
                    _ = try loop.listen(on: .tcp(host: "127.0.0.1", port: 0), limits: limits, handler: handler)
                }
            }
        }
    }
}

/// Lets one other thread write through a client while the test reads from it.
final class WriterHandoff: @unchecked Sendable {
    // @unchecked Sendable: exactly one other thread calls `write`, and the
    // test thread only calls `readLine`; LineClient's write path touches only
    // its immutable descriptor and endpoint, never the read buffer.
    let client: LineClient
    init(_ client: LineClient) { self.client = client }
}
