/// A descriptor the loop watches for input (or room for output) on behalf of
/// the layer above (an inotify instance, a signalfd, a plugin's pipes). Use
/// it only on the loop's thread.
///
/// The watch is level-triggered: the callback runs again on every loop turn
/// while the descriptor stays readable (writable), so it must read what is
/// there (and cancel the watch at end of file) — or, for a write watch, write
/// and cancel the watch once it has nothing left to write. The descriptor should be non-blocking,
/// so a read never stalls the loop. The watch never closes the descriptor:
/// cancel first, then close it yourself.
public final class FDWatch {
    /// The watched descriptor.
    public let fileDescriptor: Int32
    private let loop: EventLoop
    private let events: UInt32
    private var token: UInt64 = 0
    private var callback: (() -> Void)?

    init(fileDescriptor: Int32, events: UInt32, loop: EventLoop, callback: @escaping () -> Void) {
        self.fileDescriptor = fileDescriptor
        self.events = events
        self.loop = loop
        self.callback = callback
    }

    /// Whether the watch is still registered.
    public var isActive: Bool { callback != nil }

    /// Stops watching. The callback (and what it captured) is released.
    public func cancel() {
        loop.preconditionInLoop()
        guard callback != nil else { return }
        callback = nil
        loop.state.unregister(fileDescriptor, token: token)
    }

    func register() throws(TransportError) {
        token = try loop.state.register(fileDescriptor, events: events, .watch(self),
                                        what: "descriptor \(fileDescriptor)")
    }

    func fire() {
        callback?()
    }
}

extension EventLoop {
    /// Calls `onReadable` on the loop whenever `fileDescriptor` has input,
    /// end of file or an error pending, until the returned watch is cancelled.
    /// Call on the loop's thread.
    public func watchReadable(_ fileDescriptor: Int32, _ onReadable: @escaping () -> Void) throws(TransportError) -> FDWatch {
        preconditionInLoop()
        let watch = FDWatch(fileDescriptor: fileDescriptor, events: EpollBits.readable, loop: self, callback: onReadable)
        try watch.register()
        return watch
    }

    /// Calls `onWritable` on the loop whenever `fileDescriptor` can take
    /// output (or has an error pending, such as a pipe whose reader is gone),
    /// until the returned watch is cancelled. Watch only while there is
    /// something to write: an idle pipe is always writable. A descriptor may
    /// have one read and one write watch at once only if they are separate
    /// descriptors (epoll registers a descriptor once). Call on the loop's thread.
    public func watchWritable(_ fileDescriptor: Int32, _ onWritable: @escaping () -> Void) throws(TransportError) -> FDWatch {
        preconditionInLoop()
        let watch = FDWatch(fileDescriptor: fileDescriptor, events: EpollBits.writable, loop: self, callback: onWritable)
        try watch.register()
        return watch
    }
}
