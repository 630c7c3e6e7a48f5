import DeckDigest
import DeckModel

/// The client side of the WebSocket opening handshake (RFC 6455 §4.1) as a
/// value: the request to write, then the server's answer fed in as it
/// arrives until it is a `101` with the right `Sec-WebSocket-Accept`.
struct WebSocketClientHandshake {
    /// What feeding bytes came to.
    enum Outcome: Equatable {
        /// The head of the answer is not whole yet.
        case needMore
        /// Upgraded; `rest` are the first WebSocket bytes that came with the head.
        case upgraded(rest: [UInt8])
        /// Not a WebSocket answer.
        case refused(String)
    }

    /// The longest answer head read before giving up on it.
    static let maximumHeadBytes = 16 << 10
    private static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    let key: String
    private var head: [UInt8] = []
    private var finished = false

    /// A handshake with a fresh random key (16 bytes in base64).
    init<Random: RandomNumberGenerator>(using random: inout Random) {
        key = Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// The GET request for `host:port`, asking for obs-websocket's JSON subprotocol.
    func request(host: String, port: Int, path: String = "/") -> [UInt8] {
        Array(("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: obswebsocket.json\r\n\r\n").utf8)
    }

    /// Feeds the server's bytes; once it has answered, more bytes are an error of the caller's.
    mutating func feed(_ bytes: some Collection<UInt8>) -> Outcome {
        precondition(!finished, "the handshake is over")
        head.append(contentsOf: bytes)
        guard let end = headEnd() else {
            if head.count > Self.maximumHeadBytes {
                finished = true
                return .refused("its answer's head is over \(Self.maximumHeadBytes) bytes")
            }
            return .needMore
        }
        finished = true
        let rest = Array(head[(end + 4)...])
        let lines = String(decoding: head[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let status = lines.first, status.hasPrefix("HTTP/1.1 ") || status.hasPrefix("HTTP/1.0 ") else {
            return .refused("the answer is not HTTP")
        }
        guard status.dropFirst(9).hasPrefix("101") else {
            return .refused("it answered '\(status.prefix(80))' instead of 101 Switching Protocols")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            fields[name] = String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        guard fields["upgrade"]?.lowercased() == "websocket" else { return .refused("the answer has no 'Upgrade: websocket'") }
        let expected = Base64.encode(Digest.sha1(Array((key + Self.guid).utf8)))
        guard fields["sec-websocket-accept"] == expected else {
            return .refused("its Sec-WebSocket-Accept does not match the key sent")
        }
        return .upgraded(rest: rest)
    }

    private func headEnd() -> Int? {
        guard head.count >= 4 else { return nil }
        for index in 0...(head.count - 4)
        where head[index] == 13 && head[index + 1] == 10 && head[index + 2] == 13 && head[index + 3] == 10 {
            return index
        }
        return nil
    }
}
