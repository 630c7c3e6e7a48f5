/// Something to listen on or connect to: a TCP `HOST:PORT` or a Unix-domain
/// socket path.
public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// A TCP address. `host` is a numeric IPv4 or IPv6 address (without
    /// brackets) or a name the resolver knows; port 0 asks for any free port
    /// when listening.
    case tcp(host: String, port: Int)
    /// A Unix-domain stream socket at `path`.
    case unix(path: String)

    /// Parses `HOST:PORT` as the command lines take it: `127.0.0.1:7531`,
    /// `0.0.0.0:7531`, `[::1]:7531`, `[::]:0`, `localhost:7531`. IPv6
    /// addresses need their brackets, so `::1:7531` is refused rather than guessed.
    public init(tcp text: String) throws(TransportError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .invalidAddress(text, reason: "an IPv6 address opened with '[' needs its closing ']'")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw .invalidAddress(text, reason: "expected ':PORT' after the bracketed address, as in [::1]:7531")
            }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw .invalidAddress(text, reason: "expected HOST:PORT, as in 127.0.0.1:7531")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                throw .invalidAddress(text, reason: "put an IPv6 address in brackets, as in [::1]:7531")
            }
        }
        if host.isEmpty {
            throw .invalidAddress(text, reason: "the host is missing; use 0.0.0.0 for every IPv4 interface or 127.0.0.1 for this machine only")
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), port <= 65535 else {
            throw .invalidAddress(text, reason: "the port must be a number from 0 to 65535")
        }
        self = .tcp(host: String(host), port: port)
    }

    /// `127.0.0.1:7531`, `[::1]:7531`, or the socket path.
    public var description: String {
        switch self {
        case let .tcp(host, port):
            return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case let .unix(path):
            return path
        }
    }
}
