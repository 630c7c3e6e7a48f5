/// How a connection's output reaches the kernel, as a state machine: whether
/// a flush is due at the end of this loop turn, whether the kernel's buffer
/// is full (the rest waits for EPOLLOUT), and when what waits is over
/// ``ConnectionLimits/maxQueuedOutputBytes`` (the peer does not read: close).
/// Byte counts come in as arguments (`bytes`: everything waiting, queued and
/// held); the returned actions say what the connection must do.
///
/// ```
/// writable ──a write the kernel did not take whole──▶ blocked (EPOLLOUT polled)
///    ▲                                                   │
///    └──────────── everything written ◀──────────────────┘
/// either: bytes queued ─▶ flush scheduled (writable) / limit checked (blocked)
/// ```
struct ConnectionWriteState {
    /// What the connection must do after bytes were queued.
    enum Action: Equatable {
        /// Nothing now.
        case none
        /// Put the connection on the loop's list to flush at the end of this turn.
        case scheduleFlush
        /// More than the limit waits for a peer that does not read: close it.
        case failOverLimit
    }

    /// What the connection must do after a write.
    enum FlushOutcome: Equatable {
        /// Everything is written (tell the lifecycle).
        case drained
        /// The output before the held lines is written: frame them now.
        case releaseHeld
        /// The kernel's buffer is full: poll for EPOLLOUT.
        case waitForWritable
        /// More than the limit waits for a peer that does not read: close it.
        case failOverLimit
    }

    private enum State: Equatable {
        /// The kernel takes what is written.
        case writable(flushScheduled: Bool)
        /// The kernel's buffer is full: the rest waits for EPOLLOUT.
        case blocked(flushScheduled: Bool)
    }

    /// ``ConnectionLimits/maxQueuedOutputBytes``.
    let limit: Int
    private var state = State.writable(flushScheduled: false)

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the socket must be polled for room to write.
    var isBlocked: Bool {
        if case .blocked = state { return true }
        return false
    }

    private var flushScheduled: Bool {
        switch state {
        case .writable(let scheduled), .blocked(let scheduled): scheduled
        }
    }

    // MARK: Inputs

    /// Bytes a framing made were queued. While writable they go out this
    /// turn, whatever their size; while blocked the limit is checked now
    /// rather than letting the queue grow until the kernel wants more.
    mutating func framed(bytes: Int) -> Action {
        if isBlocked { return bytes > limit ? .failOverLimit : .none }
        return flushWanted()
    }

    /// A line waits behind output not written yet (``Connection/sendLatest(_:)``):
    /// it is within the limit or the peer is closed; a peer that does not
    /// read gets it with the next EPOLLOUT.
    mutating func held(bytes: Int) -> Action {
        if bytes > limit { return .failOverLimit }
        return isBlocked ? .none : flushWanted()
    }

    /// A flush is wanted this turn (the connection starts to close, or held
    /// lines were framed); once per turn.
    mutating func flushWanted() -> Action {
        guard !flushScheduled else { return .none }
        state = isBlocked ? .blocked(flushScheduled: true) : .writable(flushScheduled: true)
        return .scheduleFlush
    }

    /// A flush begins (the end of the turn, or EPOLLOUT).
    mutating func flushStarted() {
        state = isBlocked ? .blocked(flushScheduled: false) : .writable(flushScheduled: false)
    }

    /// The kernel took what it would: `outputEmpty` when every queued byte
    /// is written; `bytes` still wait in all (queued and held; `hasHeld`:
    /// some lines are held behind the output).
    mutating func wrote(outputEmpty: Bool, bytes: Int, hasHeld: Bool) -> FlushOutcome {
        if outputEmpty {
            state = .writable(flushScheduled: flushScheduled)
            return hasHeld ? .releaseHeld : .drained
        }
        state = .blocked(flushScheduled: flushScheduled)
        return bytes > limit ? .failOverLimit : .waitForWritable
    }
}
