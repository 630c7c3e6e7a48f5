import DeckTestSupport
@testable import DeckTLS
import Foundation
import Testing

/// A server and a client session wired back to back in memory: what one
/// writes is what the other receives, as over a socket.
struct SessionPair {
    var server: TLSSession
    var client: TLSSession
    /// Plaintext each side delivered, and the events it reported.
    var serverGot: [UInt8] = []
    var clientGot: [UInt8] = []
    var serverEvents: [TLSSession.Action] = []
    var clientEvents: [TLSSession.Action] = []

    init(server: TLSContext, client: TLSContext, serverName: String? = "localhost") {
        self.server = TLSSession(server: server)
        self.client = TLSSession(client: client, serverName: serverName)
    }

    /// Runs the client's first flight, then passes records both ways until
    /// neither side has anything to write. `chunk` splits every write, as a
    /// slow network would.
    mutating func run(first: [TLSSession.Action]? = nil, chunk: Int = .max) {
        var toServer = collect(first ?? client.start(), side: .client)
        var toClient: [UInt8] = []
        while !toServer.isEmpty || !toClient.isEmpty {
            for piece in pieces(toServer, chunk) {
                toClient += collect(piece.withUnsafeBytes { server.receive($0) }, side: .server)
            }
            toServer = []
            for piece in pieces(toClient, chunk) {
                toServer += collect(piece.withUnsafeBytes { client.receive($0) }, side: .client)
            }
            toClient = []
        }
    }

    enum Side { case server, client }

    /// Keeps what `actions` deliver and report; returns what they write.
    mutating func collect(_ actions: [TLSSession.Action], side: Side) -> [UInt8] {
        var written: [UInt8] = []
        for action in actions {
            switch action {
            case let .write(bytes): written += bytes
            case let .deliver(bytes): if side == .server { serverGot += bytes } else { clientGot += bytes }
            default: if side == .server { serverEvents.append(action) } else { clientEvents.append(action) }
            }
        }
        return written
    }

    private func pieces(_ bytes: [UInt8], _ size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: max(1, min(size, bytes.count))).map {
            Array(bytes[$0..<min($0 + size, bytes.count)])
        }
    }
}

/// One self-signed identity per test run (making keys is the slow part).
enum Identity {
    static let folder = try! TemporaryDirectory(prefix: "tls-identity")
    static let made: (context: TLSContext, notices: [String]) = try! TLSSource.automatic(folder: folder.path + "/tls")
        .load(names: SubjectNames(hostNames: ["deck.test", "localhost"], addresses: ["127.0.0.1", "::1"]))
    static var server: TLSContext { made.context }
    static let client = try! TLSContext(clientTrusting: folder.path + "/tls/certificate.pem")
}

@Suite struct TLSSessionTests {
    @Test(arguments: [Int.max, 1, 7, 100])
    func handshakeThenLinesBothWays(chunk: Int) {
        var pair = SessionPair(server: Identity.server, client: Identity.client)
        pair.run(chunk: chunk)
        #expect(pair.server.isEstablished && pair.client.isEstablished)
        #expect(pair.serverEvents == [.handshakeCompleted])
        #expect(pair.server.protocolVersion == "TLSv1.3")

        let hello = Array(#"{"type":"hello"}"#.utf8) + [0x0A]
        let first = hello.withUnsafeBytes { pair.client.send($0) }
        pair.run(first: first, chunk: chunk)
        #expect(pair.serverGot == hello)
        let reply = Array(repeating: UInt8(ascii: "x"), count: 40_000)  // spans three records
        let back = pair.collect(reply.withUnsafeBytes { pair.server.send($0) }, side: .server)
        _ = pair.collect(back.withUnsafeBytes { pair.client.receive($0) }, side: .client)
        #expect(pair.clientGot == reply)
    }

    @Test func plainClientGetsNothing() {
        var server = TLSSession(server: Identity.server)
        let hello = Array(#"{"type":"hello","token":"secret"}"#.utf8) + [0x0A]
        #expect(hello.withUnsafeBytes { server.receive($0) } == [.fail(.notTLS)])
        // Nothing more is read or written afterwards.
        #expect(hello.withUnsafeBytes { server.receive($0) } == [])
        #expect(hello.withUnsafeBytes { server.send($0) } == [])
    }

    @Test func httpOnTheTLSPortGetsNothing() {
        var server = TLSSession(server: Identity.server)
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(request.withUnsafeBytes { server.receive($0) } == [.fail(.notTLS)])
    }

    @Test func garbageAfterTheRecordHeaderFailsTheHandshake() {
        var server = TLSSession(server: Identity.server)
        let bogus: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let actions = bogus.withUnsafeBytes { server.receive($0) }
        guard case .fail(.handshake) = actions.last else {
            Issue.record("expected a failed handshake, got \(actions)")
            return
        }
        #expect(!server.isEstablished)
    }

    @Test func sendBeforeTheHandshakeIsWrittenAfterIt() {
        var pair = SessionPair(server: Identity.server, client: Identity.client)
        let early = Array("early\n".utf8)
        #expect(early.withUnsafeBytes { pair.server.send($0) } == [])
        pair.run()
        #expect(pair.clientGot == early)
    }

    @Test func closeSendsCloseNotify() {
        var pair = SessionPair(server: Identity.server, client: Identity.client)
        pair.run()
        let alert = pair.collect(pair.server.close(), side: .server)
        #expect(!alert.isEmpty)
        _ = pair.collect(alert.withUnsafeBytes { pair.client.receive($0) }, side: .client)
        #expect(pair.clientEvents.last == .closedByPeer)
        #expect(!pair.server.isEstablished)
    }

    @Test func corruptRecordFailsTheSession() {
        var pair = SessionPair(server: Identity.server, client: Identity.client)
        pair.run()
        var record = pair.collect(Array("secret\n".utf8).withUnsafeBytes { pair.client.send($0) }, side: .client)
        record[record.count - 1] ^= 0x01  // the AEAD tag no longer matches
        let actions = record.withUnsafeBytes { pair.server.receive($0) }
        guard case .fail(.record) = actions.last else {
            Issue.record("expected a failed record, got \(actions)")
            return
        }
        #expect(pair.serverGot.isEmpty)
    }

    @Test func clientChecksTheServerName() {
        var pair = SessionPair(server: Identity.server, client: Identity.client, serverName: "elsewhere.test")
        pair.run()
        #expect(!pair.client.isEstablished)
        guard case .fail(.handshake) = pair.clientEvents.last else {
            Issue.record("the client accepted a certificate for another name: \(pair.clientEvents)")
            return
        }
    }
}
