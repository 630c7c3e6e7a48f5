import DeckTLS
import Glibc

/// A minimal blocking TCP line socket, used as the client side of every
/// network figure, against the floors and against deckd alike, so the
/// client's own cost is the same on both sides of a ratio.
package final class BenchSocket {
    package let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// One read's landing place, allocated once: a fresh 64 KiB array per read
    /// would cost more than the loopback round trip being measured.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    /// The TLS client once ``startTLS(_:serverName:)`` ran: lines are sealed
    /// on `send` and opened as they are read.
    private var tls: TLSSession?

    /// Connects to `127.0.0.1:port` with TCP_NODELAY (as deckd sets on its side).
    package init(port: UInt16) throws(BenchError) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("cannot create a socket", errno) }
        var address = sockaddr_in.loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw .system("cannot connect to 127.0.0.1:\(port)", code)
        }
        BenchSocket.setNoDelay(fd)
        buffer.reserveCapacity(65_536)
    }

    /// Wraps an accepted descriptor (the floor servers' side).
    package init(accepted fd: Int32) {
        self.fd = fd
        BenchSocket.setNoDelay(fd)
    }

    deinit {
        close(fd)
        chunk.deallocate()
    }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Ends both directions now: the peer reads end of file (how a floor server is told to stop).
    package func shutdown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Runs a TLS client handshake on the blocking socket (verifying the
    /// certificate for `serverName`); afterwards lines travel encrypted.
    package func startTLS(_ context: TLSContext, serverName: String) throws(BenchError) {
        var session = TLSSession(client: context, serverName: serverName)
        var actions = session.start()
        while true {
            for action in actions {
                switch action {
                case let .write(records): try sendRaw(records)
                case let .deliver(plaintext): buffer.append(contentsOf: plaintext)
                case let .fail(error): throw .setup("the TLS handshake failed: \(error)")
                case .handshakeCompleted, .closedByPeer: break
                }
            }
            if session.isEstablished { break }
            let count = Sys.recv(fd, chunk)
            guard count > 0 else { throw .system("the host closed during the TLS handshake", errno) }
            actions = session.receive(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        tls = session
    }

    /// Sends all of `bytes` (a whole line, LF included), sealed first with TLS.
    package func send(_ bytes: [UInt8]) throws(BenchError) {
        guard var session = tls else { return try sendRaw(bytes) }
        for case let .write(records) in bytes.withUnsafeBytes({ session.send($0) }) { try sendRaw(records) }
        tls = session
    }

    private func sendRaw(_ bytes: [UInt8]) throws(BenchError) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw .system("cannot send", errno) }
            sent += result
        }
    }

    /// The next line without its LF, blocking until it is complete; nil at end of file.
    package func readLine() throws(BenchError) -> ArraySlice<UInt8>? {
        while true {
            if let line = takeLine() { return line }
            guard try fill() else { return nil }
        }
    }

    /// Reads what the socket has now without blocking (the socket must be
    /// non-blocking) and returns the complete lines it finished.
    package func readAvailableLines() throws(BenchError) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        while try fill() {
            while let line = takeLine() { lines.append(line) }
        }
        while let line = takeLine() { lines.append(line) }
        return lines
    }

    /// Makes reads return at once when nothing is there.
    package func setNonBlocking() {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    private func takeLine() -> ArraySlice<UInt8>? {
        guard let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = buffer[start..<end]
        start = end + 1
        return line
    }

    /// One read; false at end of file or when a non-blocking read has nothing.
    private func fill() throws(BenchError) -> Bool {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        while true {
            let result = recv(fd, chunk.baseAddress, chunk.count, 0)
            if result > 0, var session = tls {
                // Sealed bytes: only what they open to is a line's part (possibly nothing yet).
                for action in session.receive(UnsafeRawBufferPointer(rebasing: chunk[..<result])) {
                    if case let .deliver(plaintext) = action { buffer.append(contentsOf: plaintext) }
                    if case let .fail(error) = action { throw .setup("TLS failed: \(error)") }
                }
                tls = session
                return true
            }
            if result > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<result]))
                return true
            }
            if result == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            throw .system("cannot read", errno)
        }
    }
}

/// recv(2) retried on EINTR, into a whole buffer.
private enum Sys {
    static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }
}

extension sockaddr_in {
    /// 127.0.0.1:`port`.
    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
