#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A one-shot signal between threads: ``set()`` once, ``wait(upTo:)`` until
/// it is set or the time is up. A pipe, so the wait is a `poll` with a
/// timeout and `set` is safe from any thread.
final class Signal: Sendable {
    private let ends: (read: Int32, write: Int32)
    private let isSet = Mutex(false)

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        } else {
            fds = [-1, -1]
        }
        ends = (fds[0], fds[1])
    }

    deinit {
        if ends.read >= 0 { close(ends.read) }
        if ends.write >= 0 { close(ends.write) }
    }

    /// Sets the signal; later calls do nothing.
    func set() {
        let first = isSet.withLock { value in
            defer { value = true }
            return !value
        }
        guard first, ends.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(ends.write, &byte, 1)
    }

    /// Returns once the signal is set, or after `limit` (at once without a pipe).
    func wait(upTo limit: Duration) {
        guard ends.read >= 0, !isSet.withLock({ $0 }) else { return }
        let deadline = ContinuousClock.now + limit
        while !isSet.withLock({ $0 }) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return }
            var descriptor = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            if poll(&descriptor, 1, milliseconds) < 0, errno != EINTR { return }
        }
    }
}
