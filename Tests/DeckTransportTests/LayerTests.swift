import Foundation
import Testing
@testable import DeckTransport

/// A stand-in for TLS beneath the line framing: ROT13 on ASCII letters, both ways.
/// Bytes in, bytes out, and the handler never knows it is there.
private final class Rot13Layer: ByteStreamLayer {
    var finished = false

    static func rot13(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return (byte - UInt8(ascii: "a") + 13) % 26 + UInt8(ascii: "a")
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return (byte - UInt8(ascii: "A") + 13) % 26 + UInt8(ascii: "A")
            default: return byte
            }
        }
    }

    func inbound(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection) throws(StreamLayerFailure) -> [UInt8] {
        if bytes.contains(UInt8(ascii: "!")) { throw StreamLayerFailure("a bad record") }
        return Self.rot13(bytes)
    }

    func outbound(_ bytes: UnsafeRawBufferPointer, on connection: Connection) -> [UInt8] { Self.rot13(bytes) }

    func finish(on connection: Connection) -> [UInt8] { Array("bye\n".utf8) }
}

@Suite("connection layers")
struct LayerTests {
    private static func server() throws -> TestServer {
        let server = try TestServer.start()
        try server.loop.sync { server.listener.value.streamLayerFactory = { Rot13Layer() } }
        return server
    }

    @Test func aStreamLayerSitsBeneathTheLineFraming() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.roundTrip("uryyb jbeyq") == "uryyb jbeyq")  // the echo, encoded again
        #expect(server.log.wait { events in
            events.contains { if case .line(_, "hello world") = $0 { true } else { false } }
        })
    }

    @Test func theStreamLayerHasTheLastWordWhenTheHostCloses() throws {
        let server = try TestServer.start { connection, _, _ in connection.closeAfterFlush() }
        defer { server.stop() }
        try server.loop.sync { server.listener.value.streamLayerFactory = { Rot13Layer() } }
        let client = try server.client()
        try client.send("anything")
        #expect(try client.readText() == "bye")  // finish(on:) bytes go out unencoded, after the rest
    }

    @Test func aFailingStreamLayerClosesTheConnection() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        try client.send("!")
        #expect(client.waitForClose())
        #expect(server.log.wait { events in
            events.contains { if case .closed(_, .streamFailed("a bad record")) = $0 { true } else { false } }
        })
    }
}
