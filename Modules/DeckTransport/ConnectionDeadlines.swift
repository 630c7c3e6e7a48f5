/// A connection's two deadlines as a state machine: the establish timeout
/// (``ConnectionLimits/establishTimeout``: the handshake is due, stopped by
/// ``Connection/markEstablished()``) and the close timeout
/// (``ConnectionLimits/closeTimeout``: a closing connection is closed even
/// if the peer does not read). It says when each timer is armed and
/// cancelled; the connection keeps the loop's handles (``ConnectionTimers``)
/// and reports a fire back.
struct ConnectionDeadlines {
    /// What the connection must do to its timers.
    enum Action: Equatable {
        /// Arm the timer to fire after this long, replacing one armed before.
        case arm(ConnectionTimer, after: Duration)
        /// Cancel the timer: it must not fire.
        case cancel(ConnectionTimer)
    }

    private enum State: Equatable {
        /// The handshake is due (within the timeout while `.establish` is armed).
        case establishing
        case established
    }

    private var state = State.establishing
    private var armed: Set<ConnectionTimer> = []

    /// Whether ``markEstablished()`` came (and no new phase began since).
    var isEstablished: Bool { state == .established }
    /// Whether a timer is armed (tests).
    func isArmed(_ timer: ConnectionTimer) -> Bool { armed.contains(timer) }

    // MARK: Inputs

    /// The connection is registered; `timeout`: the establish timeout, if any.
    mutating func started(timeout: Duration?) -> Action? {
        guard let timeout else { return nil }
        return arm(.establish, after: timeout)
    }

    /// A framing starts a new phase (an HTTP request head due, a WebSocket's
    /// `hello` due after the upgrade): the handshake is due again, from now.
    mutating func phaseBegan(timeout: Duration) -> Action {
        state = .establishing
        return arm(.establish, after: timeout)
    }

    /// The handshake is done: the establish timeout stops.
    mutating func markEstablished() -> Action? {
        state = .established
        return cancel(.establish)
    }

    /// The establish timer fired: whether the connection times out now.
    mutating func establishFired() -> Bool {
        armed.remove(.establish) != nil && state == .establishing
    }

    /// The layer above was told of the close: the handshake no longer matters.
    mutating func closeNotified() -> Action? {
        cancel(.establish)
    }

    /// A close began that waits for the peer (flushing, lingering): it ends
    /// within `timeout`, once (a second close does not move the deadline).
    mutating func closing(timeout: Duration) -> Action? {
        guard !armed.contains(.close) else { return nil }
        return arm(.close, after: timeout)
    }

    /// The close timer fired: whether the connection is closed now.
    mutating func closeFired() -> Bool {
        armed.remove(.close) != nil
    }

    /// The descriptor is closed: no timer may fire.
    mutating func closed() -> [Action] {
        [cancel(.establish), cancel(.close)].compactMap { $0 }
    }

    private mutating func arm(_ timer: ConnectionTimer, after delay: Duration) -> Action {
        armed.insert(timer)
        return .arm(timer, after: delay)
    }

    private mutating func cancel(_ timer: ConnectionTimer) -> Action? {
        armed.remove(timer) == nil ? nil : .cancel(timer)
    }
}

/// A connection's timers (see ``ConnectionDeadlines``).
enum ConnectionTimer: Hashable, CaseIterable {
    case establish
    case close
}

/// The loop's handles of a connection's armed timers: two slots, no allocation.
struct ConnectionTimers {
    private var establish: LoopTimer?
    private var close: LoopTimer?

    subscript(timer: ConnectionTimer) -> LoopTimer? {
        get { timer == .establish ? establish : close }
        set { if timer == .establish { establish = newValue } else { close = newValue } }
    }
}
