#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket to OBS: connect, read, write, close.
struct ObsSocket {
    let descriptor: Int32

    /// Starts connecting to `host:port`; the socket is writable once connected (check ``connectError()``).
    static func connect(host: String, port: Int) throws(ObsError) -> ObsSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw .socket("cannot find the address of '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                                    | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket("cannot make a socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let why = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw .socket("cannot connect to \(host):\(port): \(why)")
        }
        return ObsSocket(descriptor: descriptor)
    }

    /// After the socket turned writable: nil when connected, else why not.
    func connectError() -> String? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return String(cString: strerror(errno)) }
        return error == 0 ? nil : String(cString: strerror(error))
    }

    /// What arrived: bytes, an empty array at the end of the stream, nil when nothing is there yet.
    func read(into buffer: inout [UInt8]) throws(ObsError) -> Int? {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        throw .socket("the connection to OBS broke: \(String(cString: strerror(errno)))")
    }

    /// Writes what it can of `bytes`; returns how many went.
    func write(_ bytes: ArraySlice<UInt8>) throws(ObsError) -> Int {
        let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw .socket("the connection to OBS broke: \(String(cString: strerror(errno)))")
    }

    func close() { Glibc.close(descriptor) }
}
