/// One request head, as http_parser read it (``HTTPHeadDecoder``). Bytes
/// that are not UTF-8 (http_parser lets them through in a target or a value)
/// read as U+FFFD.
package struct HTTPRequest: Equatable, Sendable {
    /// `GET`, `HEAD`, … (as http_parser names it).
    package var method: String
    /// The request target as sent (path and query).
    package var target: String
    /// Header fields in order; names as sent (compare case-insensitively).
    /// A value is without its leading white space, and folded lines are joined.
    package var headers: [(name: String, value: String)]
    /// The HTTP major version as sent: http_parser also reads `HTTP/0.9` style
    /// request lines (no version) as 0.9, and any digit.
    package var majorVersion: Int = 1
    /// The HTTP minor version.
    package var minorVersion: Int
    /// Whether the connection stays open after the response (http_should_keep_alive).
    package var keepAlive: Bool
    /// http_parser saw `Connection: upgrade` with an `Upgrade` header.
    package var isUpgrade: Bool

    /// The first value of a header, by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// The comma-separated tokens of every value of a header, lowercased.
    func tokens(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t").lowercased() }
    }

    /// A `tchar` of RFC 9110 §5.6.2: what method and field names are made of.
    static func isTokenByte(_ byte: UInt8) -> Bool { tokenBytes[Int(byte)] }

    /// A byte of a Host value (RFC 3986 `host [":" port]`: a name, an
    /// address, or an IP literal in brackets).
    static func isHostByte(_ byte: UInt8) -> Bool { hostBytes[Int(byte)] }

    // Tables, built once: every field name of every head is checked byte by byte.
    private static let tokenBytes = byteTable(extra: "!#$%&'*+-.^_`|~")
    private static let hostBytes = byteTable(extra: "-._~!$&'()*+,;=%:[]")

    /// Letters and digits, and the bytes of `extra`.
    private static func byteTable(extra: String) -> [Bool] {
        (0..<256).map { value in
            let byte = UInt8(value)
            return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || extra.utf8.contains(byte)
        }
    }

    /// The path without query or fragment.
    var path: String {
        String(target.prefix { $0 != "?" && $0 != "#" })
    }

    package static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target
            && lhs.majorVersion == rhs.majorVersion && lhs.minorVersion == rhs.minorVersion
            && lhs.keepAlive == rhs.keepAlive && lhs.isUpgrade == rhs.isUpgrade
            && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
    }
}

extension String {
    /// Without leading and trailing characters of `set` (no Foundation needed).
    func trimmingCharacters(in set: String) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view.removeFirst() }
        while let last = view.last, set.contains(last) { view.removeLast() }
        return String(view)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
