import Dispatch
import Glibc
import Synchronization

/// What may be called from any thread: handing work to the loop, stopping it.
extension EventLoop {
    /// Runs `work` on the loop's thread soon, in the order handed over.
    /// Returns false (and drops `work`) when the loop has stopped.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, wake) = remote.withLock { remote -> (Bool, Bool) in
            guard remote.phase != .stopped else { return (false, false) }
            remote.tasks.append(work)
            if remote.wakePending { return (true, false) }
            remote.wakePending = true
            return (true, true)
        }
        if wake { wakeUp() }
        return accepted
    }

    /// Asks the loop to stop: it closes every listener (removing Unix socket
    /// files), connection (each handler hears ``CloseReason/loopStopped``)
    /// and watch, then `run` returns. Returns at once; see ``waitUntilStopped()``.
    public func stop() {
        let wake = remote.withLock { remote -> Bool in
            remote.stopRequested = true
            if remote.wakePending || remote.phase == .stopped { return false }
            remote.wakePending = true
            return true
        }
        if wake { wakeUp() }
    }

    /// Blocks until the loop has stopped. Never call it on the loop's thread.
    public func waitUntilStopped() {
        precondition(!inEventLoop, "DeckTransport: waitUntilStopped() on the loop's own thread would wait forever")
        let semaphore = DispatchSemaphore(value: 0)
        let stopped = remote.withLock { remote -> Bool in
            if remote.phase == .stopped { return true }
            remote.stopWaiters.append(semaphore)
            return false
        }
        if !stopped { semaphore.wait() }
    }

    /// Runs `body` on the loop's thread and waits for its result (runs it
    /// directly when already there). Throws ``TransportError/loopStopped``
    /// when the loop no longer takes work.
    public func sync<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        if inEventLoop { return try body() }
        let handoff = Handoff<T>()
        guard execute({ handoff.complete(Result { try body() }) }) else { throw TransportError.loopStopped }
        return try handoff.wait().get()
    }

    /// Runs `body` on the loop's thread and returns its result to the awaiting task.
    public func submit<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = execute { continuation.resume(with: Result { try body() }) }
            if !accepted { continuation.resume(throwing: TransportError.loopStopped) }
        }
    }

    func wakeUp() {
        var one: UInt64 = 1
        _ = Sys.retrying { write(wakeFD, &one, MemoryLayout<UInt64>.size) }
    }
}

/// A one-shot result passed from the loop to a thread blocked in `sync`.
private final class Handoff<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func complete(_ value: Result<T, any Error>) {
        result.withLock { $0 = value }
        ready.signal()
    }

    func wait() -> Result<T, any Error> {
        ready.wait()
        return result.withLock { $0 } ?? .failure(TransportError.loopStopped)
    }
}
