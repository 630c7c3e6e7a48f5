#if canImport(Glibc)
import Glibc
#endif
import DeckPluginKit
import Synchronization

/// One thing for the bus thread.
enum MediaInboxItem: Sendable {
    /// A line from the host.
    case host(PluginEvent)
    /// What fetching an art URL gave (``ArtFetcher``).
    case art(url: String, result: Result<[UInt8], MediaError>)
}

/// Hands the host's events from the plugin's main thread, and fetched art
/// from the fetch thread, to its bus thread.
typealias MediaInbox = Mailbox<MediaInboxItem>

extension Mailbox where Item == MediaInboxItem {
    /// Queues a host event for the bus thread.
    func post(_ event: PluginEvent) {
        post(.host(event))
    }
}

/// Items for a thread that waits in `poll`: a locked queue, and a pipe whose
/// read end the thread polls, so a post wakes it at once.
final class Mailbox<Item: Sendable>: Sendable {
    private struct Queue {
        var items: [Item] = []
        var stopped = false
    }

    private let queue = Mutex(Queue())
    /// The thread polls this; one byte is written per post.
    let wakeDescriptor: Int32
    private let postDescriptor: Int32

    /// `owner` names the thread in the error when the pipe cannot be made.
    init(for owner: String) throws(MediaError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw MediaError("making the \(owner)'s wake-up pipe", code: -errno) }
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

    /// Queues an item for the thread.
    func post(_ item: Item) {
        queue.withLock { $0.items.append(item) }
        wake()
    }

    /// Asks the thread to end.
    func stop() {
        queue.withLock { $0.stopped = true }
        wake()
    }

    /// Everything queued since the last call, in order, and whether to stop.
    func take() -> (items: [Item], stopped: Bool) {
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

/// A thread of its own for `body` (the bus loop, the art fetch loop), joined by ``join()``.
final class BusThread: Sendable {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let thread: pthread_t

    init(_ body: @escaping @Sendable () -> Void) throws(MediaError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, nil, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard code == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw MediaError("starting the bus thread", code: -code)
        }
        self.thread = thread
    }

    /// Waits for the body to return.
    func join() {
        pthread_join(thread, nil)
    }
}
