internal import CLinux
import Glibc

/// Thin helpers over the C library: EINTR retries, descriptor flags, socket
/// options and the monotonic clock. Internal; the rest of the module speaks
/// through these so each trap is handled in one place.
enum Sys {
    /// Runs a system call again while it fails with EINTR (a signal arrived
    /// before it did anything). `close` must never go through this: on Linux
    /// the descriptor is released even when close reports EINTR.
    @inline(__always)
    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// Closes a descriptor once, ignoring the result (see ``retrying(_:)``).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Whether `fd` has FD_CLOEXEC set (tests and diagnostics).
    static func isCloseOnExec(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32, _ what: String) throws(TransportError) {
        var value = value
        if setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            throw .lastSystemError("set \(what)")
        }
    }

    /// A new stream socket of `family`, non-blocking and close-on-exec from birth.
    static func streamSocket(family: Int32, _ what: String) throws(TransportError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, type, 0)
        if fd < 0 { throw .lastSystemError("create a socket for \(what)") }
        return fd
    }

    /// Nanoseconds on CLOCK_MONOTONIC, the clock `epoll_wait` and `poll` time out by.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Whole nanoseconds in `duration`, clamped to zero and to about 290 years.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 { return 0 }
        if seconds >= 9_000_000_000 { return 9_000_000_000 * 1_000_000_000 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// Milliseconds to wait for `deadline` (rounded up, so a wake-up never
    /// comes before the deadline and spins), or -1 for "no deadline".
    static func millisecondsUntil(_ deadline: UInt64?, now: UInt64) -> Int32 {
        guard let deadline else { return -1 }
        if deadline <= now { return 0 }
        let millis = (deadline - now + 999_999) / 1_000_000
        return Int32(clamping: millis)
    }
}
