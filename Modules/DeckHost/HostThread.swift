import DeckTransport

/// Threads for blocking work off the event loop (action runners, the lock probe).
enum HostThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes are kept),
    /// with a small stack: these threads only wait on descriptors.
    static func start(name: String, stackSize: Int = 256 << 10, _ body: @escaping @Sendable () -> Void) throws(HostError) {
        do {
            try EventLoop.startThread(named: name, stackSize: stackSize, body)
        } catch {
            throw .runtime("could not start a thread for \(name): \(error)")
        }
    }
}
