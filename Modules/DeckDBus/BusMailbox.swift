#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Items for a thread that waits in `poll` (a bus thread): a locked queue,
/// and a pipe whose read end the thread polls beside the bus socket
/// (``wakeDescriptor``), so a post from another thread wakes it at once.
public final class BusMailbox<Item: Sendable>: Sendable {
    private struct Queue {
        var items: [Item] = []
        var stopped = false
    }

    private let queue = Mutex(Queue())
    /// The read end to poll for `POLLIN`; one byte is written per post.
    public let wakeDescriptor: Int32
    private let postDescriptor: Int32

    /// `owner` names the thread in the error when the pipe cannot be made.
    public init(for owner: String) throws(DBusError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .failed("making the \(owner)'s wake-up pipe", errno: errno) }
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

    /// Queues an item for the thread and wakes it.
    public func post(_ item: Item) {
        post([item])
    }

    /// Queues items, in order, with one wake-up; nothing when `items` is empty.
    public func post(_ items: [Item]) {
        guard !items.isEmpty else { return }
        queue.withLock { $0.items += items }
        wake()
    }

    /// Asks the thread to end (after the items queued before).
    public func stop() {
        queue.withLock { $0.stopped = true }
        wake()
    }

    /// Everything queued since the last call, in order, and whether to stop; drains the wake-up pipe.
    public func take() -> (items: [Item], stopped: Bool) {
        var byte: UInt8 = 0
        while read(wakeDescriptor, &byte, 1) > 0 {}
        return queue.withLock { queue in
            defer { queue.items = [] }
            return (queue.items, queue.stopped)
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        // A full pipe already wakes the thread: a lost byte loses nothing.
        _ = write(postDescriptor, &byte, 1)
    }
}

/// A thread of its own for `body` (a bus loop), joined by ``join()``.
///
/// A pthread rather than a Swift concurrency task: the body blocks in
/// `poll`, which would hold one of the cooperative pool's few threads.
public final class BusThread: Sendable {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let thread: pthread_t

    /// Starts `body` on a new thread; `name` says which in the error when it cannot start.
    public init(_ name: String = "bus thread", _ body: @escaping @Sendable () -> Void) throws(DBusError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, box)
        guard code == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw .failed("starting the \(name)", errno: code)
        }
        self.thread = thread
    }

    /// Waits for the body to return; call it once.
    public func join() {
        pthread_join(thread, nil)
    }
}
