/// Where a connection comes from (or where a listener is bound), in the
/// numeric form the kernel reports.
///
/// An IPv4 client of a dual-stack IPv6 listener arrives as an IPv4-mapped
/// IPv6 address (`::ffff:127.0.0.1`); it is reported here as the plain IPv4
/// address it is, so loopback checks and per-address counting see one
/// address per client whichever listener it came through.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        /// IPv4 (including IPv4-mapped IPv6 peers).
        case ipv4
        /// IPv6.
        case ipv6
        /// A Unix-domain socket on this machine.
        case unix
    }

    /// The address family.
    public let family: Family
    /// The numeric host (`127.0.0.1`, `::1`), or for ``Family/unix`` the
    /// socket file's path.
    public let host: String
    /// The port; 0 for Unix-domain sockets.
    public let port: Int

    /// Makes an address from its parts.
    public init(family: Family, host: String, port: Int) {
        self.family = family
        self.host = host
        self.port = port
    }

    /// Whether the peer is on this machine: an IPv4 address in 127.0.0.0/8,
    /// the IPv6 loopback `::1`, or any Unix-domain peer.
    public var isLoopback: Bool {
        switch family {
        case .unix: return true
        case .ipv4: return host.hasPrefix("127.")
        case .ipv6: return host == "::1"
        }
    }

    /// Whether this is a Unix-domain address.
    public var isUnixDomain: Bool { family == .unix }

    /// `127.0.0.1:7531`, `[::1]:7531`, or the socket path.
    public var description: String {
        switch family {
        case .ipv4: return "\(host):\(port)"
        case .ipv6: return "[\(host)]:\(port)"
        case .unix: return host.isEmpty ? "unix socket" : host
        }
    }
}
