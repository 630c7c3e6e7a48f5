import DeckDigest
import DeckModel
import Testing
@testable import ObsPlugin

@Suite struct WebSocketClientTests {
    func handshake() -> WebSocketClientHandshake {
        var random = SystemRandomNumberGenerator()
        return WebSocketClientHandshake(using: &random)
    }

    func accept(_ key: String) -> String {
        Base64.encode(Digest.sha1(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    }

    @Test func anUpgradeWithTheRightAcceptKeyKeepsTheBytesAfterIt() {
        var shake = handshake()
        let request = String(decoding: shake.request(host: "127.0.0.1", port: 4455), as: UTF8.self)
        #expect(request.hasPrefix("GET / HTTP/1.1\r\n") && request.contains("Sec-WebSocket-Key: \(shake.key)\r\n"))
        let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept(shake.key))\r\n\r\n"
        let bytes = Array(answer.utf8) + [0x81, 0x00]
        // Byte by byte: the head may arrive in any pieces.
        for byte in bytes.dropLast(3) { #expect(shake.feed([byte]) == .needMore) }
        #expect(shake.feed(bytes.suffix(3)) == .upgraded(rest: [0x81, 0x00]))
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\n\r\n", "SSH-2.0-OpenSSH\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: AAAA\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: AAAA\r\n\r\n",
    ])
    func notAnUpgradeIsRefused(_ answer: String) {
        var shake = handshake()
        guard case .refused = shake.feed(Array(answer.utf8)) else { Issue.record("accepted \(answer)"); return }
    }

    @Test func anEndlessHeadIsRefused() {
        var shake = handshake()
        guard case .refused(let why) = shake.feed([UInt8](repeating: 65, count: WebSocketClientHandshake.maximumHeadBytes + 1)) else {
            Issue.record("no refusal"); return
        }
        #expect(why.contains("bytes"))
    }

    @Test func textFramesArriveAndOurFramesAreMasked() {
        let codec = WebSocketClientCodec(maximumMessageBytes: 1024)
        #expect(codec.receive([0x81, 0x02, 0x68, 0x69]) == ["hi"])
        // Two fragments make one message.
        #expect(codec.receive([0x01, 0x01, 0x61]).isEmpty)
        #expect(codec.receive([0x80, 0x01, 0x62]) == ["ab"])
        codec.send("x")
        let out = codec.takeOutput()
        #expect(out.count == 7 && out[0] == 0x81 && out[1] == 0x81)  // FIN text, masked, 1 byte
    }

    @Test func anOversizedMessageIsRefusedFromItsHeader() {
        let codec = WebSocketClientCodec(maximumMessageBytes: 100)
        // Claims 2^40 bytes; wslay judges it by that length with its first payload byte and keeps none of it.
        #expect(codec.receive([0x81, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0x61]).isEmpty)
        guard case .violation? = codec.end else { Issue.record("not refused: \(String(describing: codec.end))"); return }
        #expect(codec.takeOutput().first == 0x88)  // our close
    }

    @Test(arguments: [[UInt8]([0x82, 0x01, 0x00]), [0x81, 0x02, 0xff, 0xfe], [0x83, 0x00], [0x81, 0x81, 0, 0, 0, 0, 0x61]])
    func badFramesEndTheConversation(_ frame: [UInt8]) {
        let codec = WebSocketClientCodec(maximumMessageBytes: 100)
        #expect(codec.receive(frame).isEmpty)
        #expect(codec.end != nil)
    }

    @Test func theServersCloseIsAnswered() {
        let codec = WebSocketClientCodec(maximumMessageBytes: 100)
        #expect(codec.receive([0x88, 0x02, 0x0f, 0xa9]).isEmpty)  // 4009
        #expect(codec.end == .serverClosed(code: 4009))
        #expect(codec.takeOutput().first == 0x88)
    }
}
