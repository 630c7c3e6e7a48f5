/// The life of one connection as a state machine: inputs are what happened,
/// the returned ``Transition`` says whom to tell and what to do to the socket.
///
/// ```
/// open ──peer EOF / line too long──▶ inputEnded (no more lines; sends still accepted)
///   │                                     │
///   │ close(afterFlush)                   │ close(afterFlush), once the layer above has answered
///   ▼                                     ▼
/// flushing ──output drained──▶ lingering ──peer EOF / timeout──▶ closed
/// (lines no longer delivered)  (our side shut down, input read and dropped)
///
/// close now / failure: closed, from any state
/// ```
///
/// Lingering exists because closing a socket that still has unread input
/// makes the kernel send a reset, which can destroy the last reply (the
/// `tooLarge` or `busy` line) before the peer reads it. A peer that has
/// already sent its EOF leaves nothing unread, so its connection closes as
/// soon as its output is written.
struct ConnectionLifecycle {
    private enum State { case open, inputEnded, flushing, lingering, closed }

    /// What the connection must do to its socket.
    enum Action: Equatable {
        /// Nothing now.
        case none
        /// Close the descriptor now.
        case closeNow
        /// Keep writing until the output is drained (start the close timer).
        case flushThenClose
        /// Shut down our sending side and wait for the peer's EOF (start the close timer).
        case shutDownAndLinger
    }

    /// The result of one input.
    struct Transition: Equatable {
        /// Tell the layer above that the connection is closed, for this reason.
        var notify: CloseReason?
        /// What to do to the socket.
        var action: Action
    }

    private var state = State.open
    /// Whether the peer shut down its sending side (read returned 0).
    private(set) var peerSentEOF = false

    /// Whether lines are still read and delivered.
    var isReceiving: Bool { state == .open }
    /// Whether sends are accepted: until a close starts, also after the input ended.
    var isOpen: Bool { state == .open || state == .inputEnded }
    /// Whether the descriptor has been closed.
    var isClosed: Bool { state == .closed }
    /// Whether the connection is closing but still holds its descriptor.
    var isClosing: Bool { state == .flushing || state == .lingering }

    /// A close asked for by the layer above or by a limit. With `afterFlush`,
    /// queued output is written first; a second close without it cuts that short.
    mutating func close(_ reason: CloseReason, afterFlush: Bool, outputPending: Bool) -> Transition {
        switch state {
        case .open, .inputEnded:
            if !afterFlush { return finish(notify: reason) }
            if outputPending {
                state = .flushing
                return Transition(notify: reason, action: .flushThenClose)
            }
            if peerSentEOF { return finish(notify: reason) }
            state = .lingering
            return Transition(notify: reason, action: .shutDownAndLinger)
        case .flushing, .lingering:
            return afterFlush ? Transition(notify: nil, action: .none) : finish(notify: nil)
        case .closed:
            return Transition(notify: nil, action: .none)
        }
    }

    /// Every queued byte has been written.
    mutating func outputDrained() -> Transition {
        guard state == .flushing else { return Transition(notify: nil, action: .none) }
        if peerSentEOF { return finish(notify: nil) }
        state = .lingering
        return Transition(notify: nil, action: .shutDownAndLinger)
    }

    /// The peer closed its sending side (read returned 0). An open connection
    /// stays open for sends: a client may half-close after its last request
    /// and read on, and the layer above still owes it the replies to the
    /// lines it sent, so it decides when to close (``close(_:afterFlush:outputPending:)``).
    mutating func peerFinished() -> Transition {
        peerSentEOF = true
        switch state {
        case .open:
            state = .inputEnded
            return Transition(notify: nil, action: .none)
        case .inputEnded, .flushing, .closed:
            return Transition(notify: nil, action: .none)
        case .lingering:
            return finish(notify: nil)
        }
    }

    /// No more lines are read (a line over the limit cannot be resynchronised);
    /// sends are still accepted until the layer above closes, as after ``peerFinished()``.
    mutating func stopReceiving() -> Transition {
        if state == .open { state = .inputEnded }
        return Transition(notify: nil, action: .none)
    }

    /// The socket failed, the output limit was hit, the close timer ran out,
    /// or the loop is stopping: close now whatever the state.
    mutating func fail(_ reason: CloseReason) -> Transition {
        switch state {
        case .open, .inputEnded: return finish(notify: reason)
        case .flushing, .lingering: return finish(notify: nil)
        case .closed: return Transition(notify: nil, action: .none)
        }
    }

    private mutating func finish(notify: CloseReason?) -> Transition {
        state = .closed
        return Transition(notify: notify, action: .closeNow)
    }
}
