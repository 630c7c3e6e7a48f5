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
    private let pipe = WakePipe()
    private let isSet = Mutex(false)

    /// A signal not set yet.
    public init() {}

    /// True once ``set()`` was called.
    public var isReady: Bool { isSet.withLock { $0 } }

    /// Sets the signal, from any thread; later calls do nothing.
    public func set() {
        let first = isSet.withLock { value in
            defer { value = true }
            return !value
        }
        if first { pipe.wake() }
    }

    /// Returns once the signal is set, or after `limit` (at once if no pipe could be made).
    public func wait(upTo limit: Duration) {
        guard pipe.readEnd >= 0 else { return }
        let deadline = ContinuousClock.now + limit
        while !isReady {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return }
            var descriptor = pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            if poll(&descriptor, 1, milliseconds) < 0, errno != EINTR { return }
        }
    }
}
