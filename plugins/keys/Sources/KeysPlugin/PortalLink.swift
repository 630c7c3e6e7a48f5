#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What the main thread (``PortalKeyboard``) and the bus thread
/// (``PortalThread``) share: the condition the bus thread last saw, the keys
/// waiting to go out, and a pipe whose read end the bus thread polls so keys
/// wake it at once.
final class PortalLink: Sendable {
    private struct Shared {
        var condition: PortalCondition = .starting(restoring: false)
        var keys: [PortalKey] = []
        var stopped = false
    }

    private let shared = Mutex(Shared())
    let wakeDescriptor: Int32
    private let postDescriptor: Int32

    init() throws(KeysError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .backEnd("making the portal thread's wake-up pipe failed: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeDescriptor = ends[0]
        postDescriptor = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(postDescriptor)
    }

    var condition: PortalCondition {
        get { shared.withLock { $0.condition } }
        set { shared.withLock { $0.condition = newValue } }
    }

    /// Queues keys for the bus thread.
    func post(_ keys: [PortalKey]) {
        guard !keys.isEmpty else { return }
        shared.withLock { $0.keys += keys }
        wake()
    }

    /// Asks the bus thread to close the session and end (after the keys queued before).
    func stop() {
        shared.withLock { $0.stopped = true }
        wake()
    }

    /// The keys queued since the last call, and whether to stop.
    func take() -> (keys: [PortalKey], stopped: Bool) {
        var byte: UInt8 = 0
        while read(wakeDescriptor, &byte, 1) > 0 {}
        return shared.withLock { shared in
            defer { shared.keys = [] }
            return (shared.keys, shared.stopped)
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        // A full pipe already wakes the thread: a lost byte loses nothing.
        _ = write(postDescriptor, &byte, 1)
    }
}
