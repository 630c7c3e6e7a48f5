internal import CLinux
import Glibc

/// A kernel socket address of any family, as `accept`, `getsockname` and
/// `getaddrinfo` produce it.
struct RawSocketAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)

    var family: Int32 { Int32(storage.ss_family) }

    /// Calls `body` with the address as the `sockaddr` pointer the C API wants.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Calls `body` with writable room for an address (for accept/getsockname).
    mutating func withMutableSockaddr<T>(_ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> T) -> T {
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
        }
    }

    /// The Unix-domain address of `path`; fails when the path does not fit `sun_path`.
    static func unix(path: String) throws(TransportError) -> RawSocketAddress {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        if bytes.isEmpty { throw .invalidAddress(path, reason: "a socket path cannot be empty") }
        if bytes.contains(0) { throw .invalidAddress(path, reason: "a socket path cannot contain a NUL byte") }
        if bytes.count >= capacity { throw .pathTooLong(path: path, limit: capacity - 1) }
        withUnsafeMutableBytes(of: &address.sun_path) { room in
            room.copyBytes(from: bytes)
            room[bytes.count] = 0
        }
        var raw = RawSocketAddress()
        withUnsafeMutableBytes(of: &raw.storage) { room in
            withUnsafeBytes(of: address) { room.copyMemory(from: $0) }
        }
        raw.length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count + 1)
        return raw
    }

    /// The numeric, family-aware form of this address. `unixPath` names a
    /// Unix-domain address whose kernel form is unnamed (an accepted peer).
    func socketAddress(unixPath: String = "") -> SocketAddress {
        switch family {
        case AF_INET:
            let address = load(sockaddr_in())
            let port = Int(UInt16(bigEndian: address.sin_port))
            let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
            return SocketAddress(family: .ipv4, host: Self.ipv4Text(bytes), port: port)
        case AF_INET6:
            let address = load(sockaddr_in6())
            let port = Int(UInt16(bigEndian: address.sin6_port))
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return SocketAddress(family: .ipv4, host: Self.ipv4Text(Array(bytes[12..<16])), port: port)
            }
            return SocketAddress(family: .ipv6, host: Self.ipv6Text(bytes), port: port)
        case AF_UNIX:
            var path = unixPath
            let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
            if Int(length) > pathOffset + 1 {
                withUnsafeBytes(of: storage) { raw in
                    let name = raw[pathOffset..<Int(length)].prefix { $0 != 0 }
                    if !name.isEmpty { path = String(decoding: name, as: UTF8.self) }
                }
            }
            return SocketAddress(family: .unix, host: path, port: 0)
        default:
            return SocketAddress(family: .unix, host: unixPath, port: 0)
        }
    }

    /// The storage's leading bytes read as the family-specific struct `empty` has the type of.
    private func load<T>(_ empty: T) -> T {
        var value = empty
        withUnsafeMutableBytes(of: &value) { room in
            withUnsafeBytes(of: storage) { room.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<room.count])) }
        }
        return value
    }

    private static func ipv4Text(_ bytes: [UInt8]) -> String {
        bytes.map(String.init).joined(separator: ".")
    }

    private static func ipv6Text(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(AF_INET6, raw.baseAddress, &text, socklen_t(text.count)) != nil
        }
        guard ok else { return bytes.map { String($0, radix: 16) }.joined(separator: ":") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension RawSocketAddress {
    /// The local address a socket is bound to.
    static func local(of fd: Int32) throws(TransportError) -> RawSocketAddress {
        var raw = RawSocketAddress()
        let result = raw.withMutableSockaddr { getsockname(fd, $0, $1) }
        if result != 0 { throw .lastSystemError("read the socket's bound address") }
        return raw
    }

    /// Resolves `host` (numeric, or a name through getaddrinfo) and `port` to
    /// the addresses to bind or connect to, in the resolver's order.
    static func resolve(host: String, port: Int) throws(TransportError) -> [RawSocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        // No AI_ADDRCONFIG: it hides ::1 on machines whose only IPv6 address
        // is the loopback, which is exactly where a local host runs.
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        if status != 0 {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var result: [RawSocketAddress] = []
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                var raw = RawSocketAddress()
                let count = min(Int(info.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
                withUnsafeMutableBytes(of: &raw.storage) { room in
                    room.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count))
                }
                raw.length = socklen_t(count)
                result.append(raw)
            }
            entry = info.ai_next
        }
        if result.isEmpty { throw .cannotResolve(host: host, reason: "no IPv4 or IPv6 address") }
        return result
    }
}
