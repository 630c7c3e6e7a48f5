internal import DeckDigest
internal import DeckModel

/// The server side of RFC 6455 §4.2: which upgrades are taken and the
/// `Sec-WebSocket-Accept` that proves it (SHA-1 by DeckDigest, base64 by DeckModel).
package struct WebSocketHandshake {
    /// RFC 6455's GUID, appended to the client's key before hashing.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// What to answer an upgrade request.
    package enum Answer: Equatable, Sendable {
        /// 101 with this accept key.
        case accept(key: String)
        /// Refused with this status and reason (403 for a foreign Origin).
        case refuse(status: Int, reason: String)
    }

    /// Origins allowed besides the page's own (`--web-origin`), lowercased.
    var extraOrigins: Set<String>
    /// `https` with TLS, else `http`: the scheme of the page's own origin.
    var scheme: String

    package init(extraOrigins: [String], secure: Bool) {
        self.extraOrigins = Set(extraOrigins.map { Self.normalized($0) })
        scheme = secure ? "https" : "http"
    }

    package func answer(_ request: HTTPRequest) -> Answer {
        guard request.method == "GET" else { return .refuse(status: 405, reason: "The upgrade must be a GET.") }
        guard request.tokens("upgrade").contains("websocket"), request.tokens("connection").contains("upgrade") else {
            return .refuse(status: 400, reason: "Only a WebSocket upgrade is served here.")
        }
        guard request.header("sec-websocket-version")?.trimmingCharacters(in: " \t") == "13" else {
            return .refuse(status: 426, reason: "WebSocket version 13 is required.")
        }
        guard let key = request.header("sec-websocket-key")?.trimmingCharacters(in: " \t"), Self.isValidKey(key) else {
            return .refuse(status: 400, reason: "Sec-WebSocket-Key must be 16 bytes in base64.")
        }
        // Two Origins are no origin a browser sends (RFC 6454 §7.3: one serialized origin).
        if request.headers.filter({ $0.name.lowercased() == "origin" }).count > 1 {
            return .refuse(status: 403, reason: "One Origin, please: this request names several.")
        }
        if let origin = request.header("origin"), !allows(origin: origin, host: request.header("host")) {
            return .refuse(status: 403, reason: "This origin may not open the deck's WebSocket.")
        }
        return .accept(key: Self.acceptKey(for: key))
    }

    /// No Origin (a native client) is checked by the caller; a browser's must be
    /// the page's own (scheme + the request's Host) or one given with --web-origin.
    func allows(origin: String, host: String?) -> Bool {
        let origin = Self.normalized(origin)
        if let host, origin == Self.normalized("\(scheme)://\(host)") { return true }
        return extraOrigins.contains(origin)
    }

    private static func normalized(_ origin: String) -> String {
        var text = origin.trimmingCharacters(in: " \t").lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// A key is base64 of 16 bytes: 24 characters ending in `==`.
    package static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[0..<22].allSatisfy { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }

    /// base64(SHA-1(key + GUID)).
    package static func acceptKey(for key: String) -> String {
        Base64.encode(Digest.sha1(Array((key + guid).utf8)))
    }

    /// The ETag digest of StaticFiles too: one SHA-1, DeckDigest's.
    static func sha1(_ bytes: [UInt8]) -> [UInt8] { Digest.sha1(bytes) }
}
