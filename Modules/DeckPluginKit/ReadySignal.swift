#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// "Usable now", from a plugin's own thread to its `hello` handler.
///
/// ``PluginMain`` sends `ready` when the handler of `hello` returns, and
/// PLUGINS.md says `ready` means the plugin is usable: a plugin that reaches
/// a service on a thread of its own (a sound server, a bus) starts that
/// thread in `hello`, then ``wait(upTo:)``; the thread calls ``set()`` once
/// its first try has ended, reached or not. Presses the host held for the
/// plugin (a restart) then find the service, not a connection on its way.
///
/// ```swift
/// let usable = ReadySignal()
/// PluginMain.run { event, plugin in
///     if case .hello = event {
///         startServiceThread(then: usable.set)
///         usable.wait(upTo: .seconds(2))  // PLUGINS.md allows 5 s
///     }
/// }
/// ```
public final class ReadySignal: Sendable {
    private let ends: (read: Int32, write: Int32)
    private let isSet = Mutex(false)

    /// A signal not set yet.
    public init() {
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

    /// True once ``set()`` was called.
    public var isReady: Bool { isSet.withLock { $0 } }

    /// Sets the signal, from any thread; later calls do nothing.
    public func set() {
        let first = isSet.withLock { value in
            defer { value = true }
            return !value
        }
        guard first, ends.write >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(ends.write, &byte, 1)
    }

    /// Returns once the signal is set, or after `limit` (at once if no pipe could be made).
    public func wait(upTo limit: Duration) {
        guard ends.read >= 0 else { return }
        let deadline = ContinuousClock.now + limit
        while !isReady {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return }
            var descriptor = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            if poll(&descriptor, 1, milliseconds) < 0, errno != EINTR { return }
        }
    }
}
