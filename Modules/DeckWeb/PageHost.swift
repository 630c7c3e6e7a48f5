import DeckTransport
import Glibc

/// Under which name a page reached the web listener (its request's `Host`),
/// and whether that name is this machine's own.
///
/// A loopback peer may be a device without a token (SECURITY.md §1), and
/// WEB.md §4's Origin check takes the page's own origin from `Host`. So a
/// page of any site whose name its owner re-points to 127.0.0.1 (DNS
/// rebinding) passed both: its Origin matched its Host, and a browser on
/// this machine is a loopback peer. Such a page ran buttons with no token
/// (an audit's finding). A loopback peer is therefore trusted only when the
/// page came under a name that can only mean this machine; under any other
/// name it is a device like one on the network: it needs a token or a code.
package struct PageHost: Equatable, Sendable {
    private let host: HostName

    /// The name, lower-cased, without port, brackets or a trailing dot.
    package var name: String { host.name }

    /// The name in a `Host` header (`name`, `name:port`, `[v6]:port`); nil when there is none.
    package init?(header: String?) {
        guard let host = HostName(authority: header) else { return nil }
        self.host = host
    }

    /// True for a name only this machine answers to: `localhost` and its
    /// subdomains (RFC 6761), a loopback address, or the machine's own host
    /// name (alone, its first label, or under `.local`).
    package func isThisMachine(hostName: String) -> Bool {
        if host.isLoopback { return true }
        let own = hostName.lowercased()
        guard !own.isEmpty else { return false }
        let label = own.split(separator: ".").first.map(String.init) ?? own
        return [own, label, own + ".local", label + ".local"].contains(name)
    }

    /// This machine's host name (`gethostname`), or empty.
    package static var machineName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
