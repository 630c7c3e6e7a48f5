internal import CLinux
#if canImport(FoundationEssentials)
import FoundationEssentials  // Data without the rest of Foundation (about 7 MB less resident memory)
#else
import Foundation
#endif
import Glibc

/// A simple blocking line client for `deckctl`, tests and benchmarks:
/// connect (TCP or Unix, with a timeout), send lines, read lines with a
/// timeout, close. One thread uses it at a time; it needs no event loop.
public final class LineClient {
    /// Where it is connected.
    public let endpoint: Endpoint
    /// The longest line ``readLine(timeout:)`` accepts (default 64 MiB, so a
    /// large `export` or `layout` reply fits).
    public var maxLineBytes = 64 << 20

    let fileDescriptor: Int32
    /// Allocated last in `init`: an init that throws never runs `deinit`, so a
    /// buffer allocated before a failed connect was leaked (64 KiB per try;
    /// LeakSanitizer, docs/reliability.md).
    private let chunk: UnsafeMutableRawBufferPointer
    private var received: [UInt8] = []
    private var consumed = 0
    private var scanned = 0
    private var isClosed = false

    /// Connects to `endpoint`, giving up after `timeout`. For a TCP name that
    /// resolves to several addresses, each is tried in turn within the timeout.
    public init(connectingTo endpoint: Endpoint, timeout: Duration = .seconds(5)) throws(TransportError) {
        self.endpoint = endpoint
        let deadline = Sys.now() &+ Sys.nanoseconds(timeout)
        switch endpoint {
        case let .tcp(host, port):
            var lastError = TransportError.connectFailed(endpoint: endpoint.description, errno: ECONNREFUSED)
            var connected: Int32 = -1
            for address in try RawSocketAddress.resolve(host: host, port: port) {
                do throws(TransportError) {
                    connected = try Self.connectTCP(address, endpoint: endpoint, deadline: deadline, timeout: timeout)
                    break
                } catch {
                    lastError = error
                }
            }
            guard connected >= 0 else { throw lastError }
            fileDescriptor = connected
        case let .unix(path):
            fileDescriptor = try Self.connectUnix(path: path, timeout: timeout)
        }
        chunk = .allocate(byteCount: 64 * 1024, alignment: 1)
    }

    deinit {
        if !isClosed { Sys.close(fileDescriptor) }
        chunk.deallocate()
    }

    /// Sends one line in full, given with or without its final LF (added
    /// when missing), so `ClientMessage.line()` can be passed as it is. An LF
    /// before the end is refused with ``TransportError/lineContainsNewline``.
    public func send(_ line: some Collection<UInt8>, timeout: Duration = .seconds(5)) throws(TransportError) {
        var bytes = Array(line)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.contains(0x0A) { throw .lineContainsNewline }
        bytes.append(0x0A)
        try write(bytes, timeout: timeout)
    }

    /// Sends the text `line` in full (with or without its final LF).
    public func send(_ line: String, timeout: Duration = .seconds(5)) throws(TransportError) {
        try send(line.utf8, timeout: timeout)
    }

    /// Writes `bytes` exactly as given (no LF added): for partial lines and
    /// deliberately broken input in tests.
    public func write(_ bytes: some Collection<UInt8>, timeout: Duration = .seconds(5)) throws(TransportError) {
        let deadline = Sys.now() &+ Sys.nanoseconds(timeout)
        let all = Array(bytes)
        var offset = 0
        while offset < all.count {
            let sent = all.withUnsafeBytes { raw in
                Sys.retrying { Glibc.send(fileDescriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), until: deadline, operation: "sending to \(endpoint)", timeout: timeout)
            } else if errno == EPIPE || errno == ECONNRESET {
                throw .connectionClosed
            } else {
                throw .lastSystemError("send to \(endpoint)")
            }
        }
    }

    /// The next line (LF removed). Throws ``TransportError/timedOut(operation:after:)``
    /// when none is complete in time, ``TransportError/connectionClosed`` when
    /// the other side closed (or reset) the connection first.
    public func readLine(timeout: Duration = .seconds(5)) throws(TransportError) -> Data {
        let deadline = Sys.now() &+ Sys.nanoseconds(timeout)
        while true {
            if let line = takeLine() { return line }
            if received.count - consumed > maxLineBytes { throw .lineTooLong(limit: maxLineBytes) }
            try wait(for: Int16(POLLIN), until: deadline, operation: "waiting for a line from \(endpoint)", timeout: timeout)
            let count = Sys.retrying { read(fileDescriptor, chunk.baseAddress, chunk.count) }
            if count > 0 { received.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count])) }
            if count == 0 { throw .connectionClosed }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                if errno == ECONNRESET { throw .connectionClosed }
                throw .lastSystemError("read from \(endpoint)")
            }
        }
    }

    /// Shuts down the sending side (the peer reads end of file) and keeps reading possible.
    public func shutdownSending() {
        _ = shutdown(fileDescriptor, Int32(SHUT_WR))
    }

    /// Closes the connection. Harmless when already closed.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Sys.close(fileDescriptor)
    }

    // MARK: internals

    private func takeLine() -> Data? {
        let found: Int? = received.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return nil }
            return LineFramer.indexOfLF(base, from: max(scanned, consumed), to: all.count)
        }
        guard let lf = found else {
            scanned = received.count
            return nil
        }
        let line = Data(received[consumed..<lf])
        consumed = lf + 1
        scanned = consumed
        if consumed == received.count {
            received.removeAll(keepingCapacity: received.capacity <= 1 << 20)
            consumed = 0
            scanned = 0
        } else if consumed > 1 << 16 && consumed * 2 > received.count {
            received.removeFirst(consumed)
            scanned -= consumed
            consumed = 0
        }
        return line
    }

    private func wait(for events: Int16, until deadline: UInt64, operation: String, timeout: Duration) throws(TransportError) {
        while true {
            let now = Sys.now()
            if now >= deadline { throw .timedOut(operation: operation, after: timeout) }
            var entry = pollfd(fd: fileDescriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Sys.millisecondsUntil(deadline, now: now))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .lastSystemError("wait for \(endpoint)") }
        }
    }

    private static func connectTCP(_ address: RawSocketAddress, endpoint: Endpoint, deadline: UInt64,
                                   timeout: Duration) throws(TransportError) -> Int32 {
        let fd = try Sys.streamSocket(family: address.family, "connecting to \(endpoint)")
        do throws(TransportError) {
            if address.withSockaddr({ connect(fd, $0, $1) }) != 0 {
                // EINTR leaves a non-blocking connect in progress, like EINPROGRESS.
                guard errno == EINPROGRESS || errno == EINTR else {
                    throw .connectFailed(endpoint: endpoint.description, errno: errno)
                }
                while true {
                    let now = Sys.now()
                    if now >= deadline { throw .timedOut(operation: "connecting to \(endpoint)", after: timeout) }
                    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    let ready = poll(&entry, 1, Sys.millisecondsUntil(deadline, now: now))
                    if ready > 0 { break }
                    if ready < 0 && errno != EINTR { throw .lastSystemError("connect to \(endpoint)") }
                }
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                if code != 0 { throw .connectFailed(endpoint: endpoint.description, errno: code) }
            }
            try Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1, "TCP_NODELAY")
            return fd
        } catch {
            Sys.close(fd)
            throw error
        }
    }

    /// A Unix-domain connect never completes later: it succeeds, fails, or
    /// (queue full) waits; the wait is bounded by SO_SNDTIMEO on a blocking
    /// socket, which is made non-blocking afterwards.
    private static func connectUnix(path: String, timeout: Duration) throws(TransportError) -> Int32 {
        let address = try RawSocketAddress.unix(path: path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw .lastSystemError("create a socket to connect to \(path)") }
        do throws(TransportError) {
            let nanos = Sys.nanoseconds(timeout)
            var limit = timeval(tv_sec: Int(nanos / 1_000_000_000), tv_usec: Int(nanos % 1_000_000_000 / 1000))
            if limit.tv_sec == 0 && limit.tv_usec == 0 { limit.tv_usec = 1 }
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            if Sys.retrying({ address.withSockaddr { connect(fd, $0, $1) } }) != 0 && errno != EISCONN {
                if errno == EAGAIN || errno == EINPROGRESS {
                    throw .timedOut(operation: "connecting to \(path)", after: timeout)
                }
                throw .connectFailed(endpoint: path, errno: errno)
            }
            let flags = fcntl(fd, F_GETFL)
            if flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 {
                throw .lastSystemError("make the connection to \(path) non-blocking")
            }
            return fd
        } catch {
            Sys.close(fd)
            throw error
        }
    }
}
