internal import CLinux
import Dispatch
import Glibc
import Synchronization

/// One thread that owns sockets: it waits in `epoll_wait`, reads and frames
/// lines, writes queued output, fires timers and runs work handed to it.
///
/// **The threading rule.** Listeners, connections, timers and fd watches
/// belong to the loop's thread: create and use them only there (inside
/// `run`'s setup, a handler callback, a timer, an fd watch callback, or work
/// passed to ``execute(_:)``). Calling them from another thread is a
/// programming error and stops the process with a message. From any thread,
/// only ``execute(_:)``, ``sync(_:)``, ``submit(_:)``, ``stop()``,
/// ``waitUntilStopped()`` and ``inEventLoop`` may be used.
///
/// When there is nothing to do the loop sleeps in `epoll_wait` with no
/// timeout at all; it wakes only for I/O, a due timer or handed-over work.
public final class EventLoop: Sendable {
    enum Phase { case idle, running, stopped }

    struct Remote {
        var phase = Phase.idle
        var tasks: [@Sendable () -> Void] = []
        var wakePending = false
        var stopRequested = false
        var stopWaiters: [DispatchSemaphore] = []
    }

    let wakeFD: Int32
    let epollFD: Int32
    let remote = Mutex(Remote())
    /// `pthread_self()` of the thread inside `run`, 0 when none.
    private let loopThread = Atomic<UInt>(0)
    private let stateBox: StateBox

    /// Makes a loop. It does nothing until ``run(setup:)`` is called (or use
    /// ``spawn(name:)`` to run it on a thread of its own).
    public init() throws(TransportError) {
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epollFD < 0 { throw .lastSystemError("create the event loop's epoll instance") }
        let wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        if wakeFD < 0 {
            let error = TransportError.lastSystemError("create the event loop's wake-up eventfd")
            Sys.close(epollFD)
            throw error
        }
        var event = epoll_event()
        event.events = EpollBits.readable
        event.data.u64 = LoopState.wakeToken
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) != 0 {
            let error = TransportError.lastSystemError("watch the wake-up eventfd")
            Sys.close(wakeFD)
            Sys.close(epollFD)
            throw error
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        stateBox = StateBox(LoopState(epollFD: epollFD))
        stateBox.state.timers.checkThread = { [weak self] in self?.preconditionInLoop() }
    }

    deinit {
        // Closed here, not at stop: a late `execute` from another thread may
        // still write to the eventfd, and must never hit a reused number.
        Sys.close(wakeFD)
        Sys.close(epollFD)
    }

    /// Whether the calling thread is this loop's thread (inside ``run(setup:)``).
    public var inEventLoop: Bool {
        let owner = loopThread.load(ordering: .acquiring)
        return owner != 0 && pthread_equal(owner, pthread_self()) != 0
    }

    /// Stops the process when called off the loop's thread (a programming
    /// error in the layer above, never something a peer can cause).
    func preconditionInLoop(_ function: StaticString = #function) {
        precondition(inEventLoop, "DeckTransport: \(function) must be called on the event loop's thread")
    }

    /// The loop-owned state; only on the loop's thread.
    var state: LoopState {
        assert(inEventLoop, "DeckTransport: loop state touched off the loop's thread")
        return stateBox.state
    }

    // MARK: running

    /// Runs the loop on the calling thread until ``stop()``. `setup` runs
    /// first, on this thread, already counted as the loop's thread: create
    /// listeners and watches there. If `setup` throws, everything it created
    /// is closed and the error is rethrown.
    public func run(setup: () throws -> Void = {}) throws {
        let mayRun = remote.withLock { remote -> Bool in
            guard remote.phase == .idle else { return false }
            remote.phase = .running
            return true
        }
        guard mayRun else { throw TransportError.loopAlreadyRunning }
        loopThread.store(pthread_self(), ordering: .releasing)
        let state = stateBox.state
        do {
            try setup()
        } catch {
            shutDown(state)
            finish(state)
            throw error
        }
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while true {
            state.runLocalWork()
            if state.stopping { break }
            let deadline = state.timers.nextDeadline()
            // Held lines to deliver: look for new events without sleeping.
            let timeout = !state.nextTurn.isEmpty ? 0 : deadline == nil ? -1 : Sys.millisecondsUntil(deadline, now: Sys.now())
            let count = epoll_wait(epollFD, events, Int32(capacity), timeout)
            state.wakeUps &+= 1
            if count < 0 {
                if errno == EINTR { continue }
                // Only EBADF/EFAULT/EINVAL remain, none possible with our own
                // descriptors; stop rather than spin.
                break
            }
            for index in 0..<Int(count) {
                dispatch(events[index], state)
                if state.stopping { break }
            }
            if state.stopping { continue }
            // Replies to what this wake-up brought go out before the lines held
            // from earlier turns are handled: a healthy client's pong would
            // otherwise wait behind every flooder's next share.
            if !state.nextTurn.isEmpty { state.runLocalWork() }
            state.runNextTurn()
            if deadline != nil || state.timers.pendingCount > 0 {
                state.timers.fireDue(now: Sys.now())
            }
        }
        shutDown(state)
        finish(state)
    }

    private func dispatch(_ event: epoll_event, _ state: LoopState) {
        let token = event.data.u64
        if token == LoopState.wakeToken {
            drainRemoteWork(state)
            return
        }
        // A miss is an event for something closed earlier in this batch.
        switch state.registrations[token] {
        case .connection(let connection): connection.handle(events: event.events)
        case .listener(let listener): listener.acceptAvailable()
        case .watch(let watch): watch.fire()
        case nil: break
        }
    }

    private func drainRemoteWork(_ state: LoopState) {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, MemoryLayout<UInt64>.size)
        let (tasks, stop) = remote.withLock { remote in
            let tasks = remote.tasks
            remote.tasks = []
            remote.wakePending = false
            return (tasks, remote.stopRequested)
        }
        for task in tasks { task() }
        if stop { state.stopping = true }
    }

    /// Closes every listener, connection and watch, and drops the timers.
    private func shutDown(_ state: LoopState) {
        state.stopping = true
        state.runLocalWork()
        for registrant in state.registrations.values {
            switch registrant {
            case .listener(let listener): listener.close()
            case .connection(let connection): connection.closeForStop()
            case .watch(let watch): watch.cancel()
            }
        }
        state.runLocalWork()
        state.timers.removeAll()
    }

    /// Marks the loop stopped, runs work that was accepted before that, and
    /// releases whoever waits in ``waitUntilStopped()``.
    private func finish(_ state: LoopState) {
        let (tasks, waiters) = remote.withLock { remote in
            remote.phase = .stopped
            let result = (remote.tasks, remote.stopWaiters)
            remote.tasks = []
            remote.stopWaiters = []
            return result
        }
        // Accepted work still runs (on this thread, where loop-only calls stay
        // legal and see everything closed), so `sync` callers are answered.
        for task in tasks { task() }
        state.runLocalWork()
        loopThread.store(0, ordering: .releasing)
        for waiter in waiters { waiter.signal() }
    }
}

/// Holds the loop state inside the `Sendable` loop.
private final class StateBox: @unchecked Sendable {
    // @unchecked Sendable: `state` is touched only on the loop's thread —
    // every public entry point that reaches it checks `inEventLoop` first —
    // or after the loop has finished (deinit), when no other thread can.
    let state: LoopState
    init(_ state: LoopState) { self.state = state }
}
