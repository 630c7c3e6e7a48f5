internal import CLinux
import Glibc

/// Who an epoll registration belongs to.
enum Registrant {
    case listener(Listener)
    case connection(Connection)
    case watch(FDWatch)
}

/// Everything the loop thread owns: registrations, timers, deferred work,
/// the shared read buffer. Only ever touched on the loop's thread.
final class LoopState {
    /// Size of the read buffer all connections share.
    static let readBufferSize = 64 * 1024
    /// Most iovecs handed to one `sendmsg`.
    static let maxIOVecs = 64
    /// The epoll token of the loop's own wake-up eventfd.
    static let wakeToken: UInt64 = 0

    let epollFD: Int32
    var registrations: [UInt64: Registrant] = [:]
    private var nextToken: UInt64 = 1
    private var nextConnectionNumber: UInt64 = 0
    let timers: TimerQueue
    /// Work the loop runs before it waits again: close notices, resumed reads.
    var localTasks: [() -> Void] = []
    /// Connections with output to write before the loop waits again.
    var needsFlush: [Connection] = []
    /// Work that waits until this turn's output is written (``EventLoop/afterFlush(_:)``).
    var afterFlush: [() -> Void] = []
    /// Connections that used up their lines for this turn with more held:
    /// delivered on the next turn, after the events it brings, so every
    /// connection gets its share (``ConnectionReadGate/linesPerTurn``).
    var nextTurn: [Connection] = []
    /// Returns from `epoll_wait` so far (tests check that an idle loop stays asleep).
    var wakeUps: UInt64 = 0
    /// Set once `stop` has been seen; nothing new may be registered.
    var stopping = false
    /// The read buffer every connection reads into; lines are copied out of
    /// it before the next read.
    let readBuffer: UnsafeMutableBufferPointer<UInt8>
    /// Room for the iovecs of one `sendmsg`.
    let iovecs: UnsafeMutablePointer<iovec>
    /// A descriptor held in reserve: when accept fails with EMFILE, it is
    /// closed to make room to accept and refuse the waiting connection, so a
    /// level-triggered listener does not spin at full CPU.
    var reserveFD: Int32

    init(epollFD: Int32) {
        self.epollFD = epollFD
        timers = TimerQueue()
        readBuffer = .allocate(capacity: Self.readBufferSize)
        iovecs = .allocate(capacity: Self.maxIOVecs)
        reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        readBuffer.deallocate()
        iovecs.deallocate()
        if reserveFD >= 0 { Sys.close(reserveFD) }
    }

    func makeConnectionID() -> ConnectionID {
        nextConnectionNumber += 1
        return ConnectionID(rawValue: nextConnectionNumber)
    }

    // MARK: epoll

    /// Adds `fd` to the epoll set for `events`; returns its token.
    func register(_ fd: Int32, events: UInt32, _ registrant: Registrant, what: String) throws(TransportError) -> UInt64 {
        if stopping { throw .loopStopped }
        let token = nextToken
        nextToken += 1
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) != 0 {
            throw .lastSystemError("watch \(what) on the event loop")
        }
        registrations[token] = registrant
        return token
    }

    /// Changes the events `fd` is watched for.
    func modify(_ fd: Int32, token: UInt64, events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Removes `fd` from the epoll set. Done explicitly before every close: a
    /// child between fork and exec still holds the descriptor, and epoll would
    /// keep reporting it until that child execs.
    func unregister(_ fd: Int32, token: UInt64) {
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &event)
        registrations[token] = nil
    }

    // MARK: deferred work

    /// Runs deferred tasks and pending flushes until there are none (each may
    /// cause more: a close notice that sends to others, a flush that fails).
    /// Gives each connection waiting in ``nextTurn`` its next share of lines.
    func runNextTurn() {
        guard !nextTurn.isEmpty else { return }
        let waiting = nextTurn
        nextTurn = []
        for connection in waiting { connection.deliverHeldLines() }
    }

    func runLocalWork() {
        repeat {
            flushLocalWork()
            // Once everything owed is written: what may follow the replies (log lines).
            let later = afterFlush
            afterFlush = []
            for work in later { work() }
        } while !localTasks.isEmpty || !needsFlush.isEmpty || !afterFlush.isEmpty
    }

    private func flushLocalWork() {
        while !localTasks.isEmpty || !needsFlush.isEmpty {
            if !localTasks.isEmpty {
                let tasks = localTasks
                localTasks = []
                for task in tasks { task() }
            }
            if !needsFlush.isEmpty {
                let connections = needsFlush
                needsFlush = []
                for connection in connections { connection.flush() }
            }
        }
    }
}

/// The epoll event bits as the `UInt32` that `epoll_event.events` holds.
enum EpollBits {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let hangup = EPOLLHUP.rawValue
    static let error = EPOLLERR.rawValue
}
