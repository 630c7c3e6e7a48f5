import Testing
@testable import DeckWeb

@Suite("WebSocket handshake")
struct HandshakeTests {
    private static func upgrade(origin: String? = nil, host: String = "127.0.0.1:7532",
                                key: String = "dGhlIHNhbXBsZSBub25jZQ==", version: String = "13") -> HTTPRequest {
        var headers = [("Host", host), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
                       ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", version)]
        if let origin { headers.append(("Origin", origin)) }
        return HTTPRequest(method: "GET", target: "/ws", headers: headers.map { (name: $0.0, value: $0.1) }, minorVersion: 1,
                           keepAlive: true, isUpgrade: true)
    }

    @Test func theAcceptKeyOfRFC6455sExample() {
        // RFC 6455 §1.3's worked example.
        #expect(WebSocketHandshake.acceptKey(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(arguments: [
        (nil as String?, true),
        ("http://127.0.0.1:7532", true),
        ("HTTP://127.0.0.1:7532/", true),
        ("https://127.0.0.1:7532", false),  // not the listener's own scheme
        ("http://evil.example", false),
        ("http://127.0.0.1:7533", false),
        ("https://deck.example.org", true),  // given with --web-origin
        ("null", false),
    ])
    func theOriginMustBeThePagesOwn(origin: String?, allowed: Bool) {
        let handshake = WebSocketHandshake(extraOrigins: ["https://deck.example.org/"], secure: false)
        let answer = handshake.answer(Self.upgrade(origin: origin))
        if allowed {
            #expect(answer == .accept(key: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        } else {
            #expect(answer == .refuse(status: 403, reason: "This origin may not open the deck's WebSocket."))
        }
    }

    @Test func withTLSThePagesOriginIsHTTPS() {
        let handshake = WebSocketHandshake(extraOrigins: [], secure: true)
        #expect(handshake.answer(Self.upgrade(origin: "https://127.0.0.1:7532")) == .accept(key: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(handshake.answer(Self.upgrade(origin: "http://127.0.0.1:7532")) != .accept(key: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
    }

    @Test func badKeysAndVersionsAreRefused() {
        let handshake = WebSocketHandshake(extraOrigins: [], secure: false)
        #expect(handshake.answer(Self.upgrade(key: "short")) == .refuse(status: 400, reason: "Sec-WebSocket-Key must be 16 bytes in base64."))
        #expect(handshake.answer(Self.upgrade(version: "8")) == .refuse(status: 426, reason: "WebSocket version 13 is required."))
    }
}
