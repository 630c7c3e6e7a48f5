import Glibc

/// The names a self-signed certificate is made for: the machine's host name
/// (and its `.local` mDNS form, which phones resolve), `localhost`, and
/// every address of the machine, so a phone may use whichever it was given.
public struct SubjectNames: Sendable, Equatable {
    /// DNS names, in order.
    public var hostNames: [String]
    /// IPv4 and IPv6 addresses as text.
    public var addresses: [String]

    /// These names exactly.
    public init(hostNames: [String], addresses: [String]) {
        self.hostNames = hostNames
        self.addresses = addresses
    }

    /// This machine's: its host name, `NAME.local`, `localhost`, and the
    /// addresses of its interfaces (IPv6 link-local ones left out: they need
    /// a zone, which no URL a phone is given carries).
    public static func thisMachine() -> SubjectNames {
        var hosts: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if isDNSName(name) {
                hosts.append(name)
                if !name.contains(".") { hosts.append(name + ".local") }
            }
        }
        hosts.append("localhost")
        var addresses = ["127.0.0.1", "::1"]
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0, let first = list {
            defer { freeifaddrs(first) }
            var entry: UnsafeMutablePointer<ifaddrs>? = first
            while let current = entry {
                if let text = addressText(current.pointee.ifa_addr), !addresses.contains(text) { addresses.append(text) }
                entry = current.pointee.ifa_next
            }
        }
        return SubjectNames(hostNames: hosts, addresses: addresses)
    }

    /// The certificate's common name: the first host name.
    var commonName: String { hostNames.first ?? "localhost" }

    /// The subjectAltName extension's value for OpenSSL (`DNS:a,IP:1.2.3.4`).
    var subjectAltName: String {
        (hostNames.map { "DNS:" + $0 } + addresses.map { "IP:" + $0 }).joined(separator: ",")
    }

    /// Letters, digits, hyphens and dots only: anything else (a comma above
    /// all) cannot be a DNS name and would break the extension's syntax.
    static func isDNSName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 253 && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x2E
        }
    }

    private static func addressText(_ address: UnsafeMutablePointer<sockaddr>?) -> String? {
        guard let address else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)).map { String(cString: $0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                var raw = inet6.pointee.sin6_addr
                // fe80::/10 is link-local.
                if raw.__in6_u.__u6_addr8.0 == 0xFE && raw.__in6_u.__u6_addr8.1 & 0xC0 == 0x80 { return nil }
                return inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)).map { String(cString: $0) }
            }
        default:
            return nil
        }
    }
}
