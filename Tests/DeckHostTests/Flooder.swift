import Foundation
import Glibc

/// A device on a raw TCP socket that sends the same request as fast as the
/// host takes it and reads nothing (issue 18 §3), counting exactly what it wrote.
final class Flooder: Sendable {
    let fd: Int32

    /// Connects, says hello as `name` and reads the welcome (blocking), then
    /// turns the socket non-blocking for the flood.
    init(port: Int, name: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FlooderError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw FlooderError("connect: errno \(errno)") }
        let hello = Array(#"{"type":"hello","id":0,"protocol":7,"device":{"name":"\#(name)","kind":"phone"}}"#.utf8) + [0x0A]
        guard hello.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == hello.count else {
            close(fd); throw FlooderError("could not send hello")
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while byte != 0x0A {
            guard recv(fd, &byte, 1, 0) == 1 else { close(fd); throw FlooderError("closed before welcome") }
            line.append(byte)
        }
        guard line.starts(with: Array(#"{"type":"welcome""#.utf8)) else {
            close(fd); throw FlooderError("hello answered with \(String(decoding: line, as: UTF8.self))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// How a flood ended.
    enum FloodEnd: Equatable {
        /// The host took none of it for the quiet time: it stopped reading this socket.
        case held(written: Int)
        /// The host closed the connection.
        case closed
        /// Still taken at the deadline.
        case stillTaken
    }

    /// Writes `burst` again and again until the host takes none of it for
    /// `quietMilliseconds`, closes the connection, or `deadline` passes.
    func flood(_ burst: [UInt8], quietMilliseconds: Int32, deadline: ContinuousClock.Instant) -> FloodEnd {
        var written = 0
        while ContinuousClock.now < deadline {
            let offset = written % burst.count
            let count = burst.withUnsafeBytes { send(fd, $0.baseAddress! + offset, burst.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                written += count
                continue
            }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return .closed }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, quietMilliseconds)
            if ready == 0 { return .held(written: written) }
            if entry.revents & Int16(POLLERR | POLLHUP) != 0 { return .closed }
        }
        return .stillTaken
    }

    /// Reads until `count` lines starting with `prefix` came (other lines are
    /// skipped); returns how many did before the host closed or `timeout`
    /// passed without a byte.
    func readLines(startingWith prefix: [UInt8], count: Int, timeoutMilliseconds: Int32) -> Int {
        var seen = 0
        var lineStart: [UInt8] = []  // the first bytes of the current line
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while seen < count {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, timeoutMilliseconds) > 0 else { return seen }
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got == 0 { return seen }
            if got < 0 { if errno == EAGAIN || errno == EINTR { continue } else { return seen } }
            buffer.withUnsafeBytes { raw in
                let base = raw.baseAddress!
                var start = 0
                while start < got {
                    let lf = memchr(base + start, 0x0A, got - start).map { UnsafeRawPointer($0) - base } ?? got
                    if lineStart.count < prefix.count {
                        lineStart += raw[start..<min(lf, start + prefix.count - lineStart.count)]
                    }
                    if lf == got { break }
                    if lineStart.starts(with: prefix) { seen += 1 }
                    lineStart.removeAll(keepingCapacity: true)
                    start = lf + 1
                }
            }
        }
        return seen
    }
}

struct FlooderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
