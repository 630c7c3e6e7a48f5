/// The life of one connection as a state machine: inputs are what happened,
/// the returned ``Transition`` says whom to tell and what to do to the socket.
///
/// ```
/// open ──close(afterFlush)──▶ flushing ──output drained──▶ lingering ──peer EOF / timeout──▶ closed
///   │                           (lines no longer delivered;   (our side shut down, input
///   └──close now / failure────────────────────────────────▶    read and dropped)
/// ```
///
/// Lingering exists because closing a socket that still has unread input
/// makes the kernel send a reset, which can destroy the last reply (the
/// `tooLarge` or `busy` line) before the peer reads it.
struct ConnectionLifecycle {
    private enum State { case open, flushing, lingering, closed }

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

    /// Whether lines are still delivered and sends accepted.
    var isOpen: Bool { state == .open }
    /// Whether the descriptor has been closed.
    var isClosed: Bool { state == .closed }
    /// Whether the connection is closing but still holds its descriptor.
    var isClosing: Bool { state == .flushing || state == .lingering }

    /// A close asked for by the layer above or by a limit. With `afterFlush`,
    /// queued output is written first; a second close without it cuts that short.
    mutating func close(_ reason: CloseReason, afterFlush: Bool, outputPending: Bool) -> Transition {
        switch state {
        case .open:
            if !afterFlush { return finish(notify: reason) }
            if outputPending {
                state = .flushing
                return Transition(notify: reason, action: .flushThenClose)
            }
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
        state = .lingering
        return Transition(notify: nil, action: .shutDownAndLinger)
    }

    /// The peer closed its sending side (read returned 0). What was already
    /// queued for it is still written: a client may half-close after its
    /// last request and read on.
    mutating func peerFinished(outputPending: Bool) -> Transition {
        switch state {
        case .open:
            if outputPending {
                state = .flushing
                return Transition(notify: .peerClosed, action: .flushThenClose)
            }
            return finish(notify: .peerClosed)
        case .flushing:
            return Transition(notify: nil, action: .none)
        case .lingering:
            return finish(notify: nil)
        case .closed:
            return Transition(notify: nil, action: .none)
        }
    }

    /// The socket failed, the output limit was hit, the close timer ran out,
    /// or the loop is stopping: close now whatever the state.
    mutating func fail(_ reason: CloseReason) -> Transition {
        switch state {
        case .open: return finish(notify: reason)
        case .flushing, .lingering: return finish(notify: nil)
        case .closed: return Transition(notify: nil, action: .none)
        }
    }

    private mutating func finish(notify: CloseReason?) -> Transition {
        state = .closed
        return Transition(notify: notify, action: .closeNow)
    }
}
