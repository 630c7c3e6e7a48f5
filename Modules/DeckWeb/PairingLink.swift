import Glibc

/// The pairing link of WEB.md §3, `WEBURL/#pair=CODE`, and the address it
/// uses when `--web-url` is not given.
public enum PairingLink {
    /// `base` (no trailing slash needed) plus `/#pair=CODE`, and `&fp=HEX`
    /// with TLS: the certificate's SHA-256, so a native device can pin it (SECURITY.md §2).
    public static func link(base: String, code: String, fingerprint: String? = nil) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/#pair=" + code + (fingerprint.map { "&fp=" + $0 } ?? "")
    }

    /// `http://HOST:PORT` for a listener on `host`: on a wildcard address the
    /// machine's first non-loopback address (what a phone on the LAN can
    /// reach), else the listener's own. IPv6 hosts are bracketed.
    public static func defaultBase(for host: String, port: Int, scheme: String = "http") -> String {
        var chosen = host
        if host == "0.0.0.0" || host == "::" {
            chosen = firstNonLoopbackAddress(ipv6: host == "::") ?? (host == "::" ? "::1" : "127.0.0.1")
        }
        let shown = chosen.contains(":") ? "[\(chosen)]" : chosen
        return "\(scheme)://\(shown):\(port)"
    }

    /// The first address of an interface that is up and not loopback (IPv4
    /// first: every phone browser reaches it); link-local IPv6 is skipped.
    static func firstNonLoopbackAddress(ipv6 allowV6: Bool) -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var v4: String?
        var v6: String?
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(bitPattern: current.pointee.ifa_flags)
            guard let address = current.pointee.ifa_addr, flags & Int32(IFF_UP) != 0,
                  flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            switch Int32(address.pointee.sa_family) {
            case AF_INET where v4 == nil:
                if getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &text, socklen_t(text.count), nil, 0,
                               NI_NUMERICHOST) == 0 {
                    v4 = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            case AF_INET6 where v6 == nil:
                if getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in6>.size), &text, socklen_t(text.count), nil, 0,
                               NI_NUMERICHOST) == 0 {
                    let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if !name.lowercased().hasPrefix("fe80") { v6 = name }
                }
            default:
                break
            }
        }
        return v4 ?? (allowV6 ? v6 : nil)
    }
}
