import Glibc

/// A host as a `Host` header or a URL's authority names it (`name`,
/// `name:port`, `[v6]:port`), and whether that name can only mean this
/// machine's loopback. The web listener's page check (DeckWeb's `PageHost`)
/// and deckctl's word on a pairing link read names the same way through it.
package struct HostName: Equatable, Sendable {
    /// The name, lower-cased, without port, brackets or a trailing dot.
    package let name: String

    /// The name in `authority`; nil when there is none.
    package init?(authority: String?) {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard var text = authority.map({ String($0.drop(while: blank).reversed().drop(while: blank).reversed()) }),
              !text.isEmpty else { return nil }
        if text.hasPrefix("[") {
            guard let end = text.firstIndex(of: "]") else { return nil }
            text = String(text[text.index(after: text.startIndex)..<end])
        } else if let colon = text.lastIndex(of: ":"), text[text.index(after: colon)...].allSatisfy(\.isNumber) {
            text = String(text[..<colon])
        }
        while text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        name = text.lowercased()
    }

    /// The host of `url` (`scheme://authority/…`); nil when it has none.
    package init?(url: String) {
        guard let start = url.firstRange(of: "://")?.upperBound else { return nil }
        let authority = url[start...].prefix { $0 != "/" && $0 != "#" && $0 != "?" }
        self.init(authority: String(authority.split(separator: "@").last ?? authority))
    }

    /// True for `localhost` and its subdomains (RFC 6761) and for a loopback
    /// address: 127.0.0.0/8, `::1`, `::ffff:127.x.y.z`.
    package var isLoopback: Bool {
        name == "localhost" || name.hasSuffix(".localhost") || Self.isLoopbackAddress(name)
    }

    private static func isLoopbackAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
        // ::ffff:127.x.y.z, an IPv4 loopback address in IPv6 form.
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }
}
