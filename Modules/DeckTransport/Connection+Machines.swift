/// Performing what the connection's machines ask for (``ConnectionReadGate``,
/// ``ConnectionWriteState``, ``ConnectionDeadlines``; the lifecycle's
/// transitions are applied in Connection.swift). The machines decide; these
/// only touch the loop, the socket's interest and the timers.
extension Connection {
    /// Bytes waiting for the peer: queued for the socket and held behind them.
    var waitingBytes: Int { output.pendingBytes + held.bytes }

    func apply(_ action: ConnectionReadGate.Action) {
        switch action {
        case .none: break
        case .updateInterest: updateInterest()
        case .readAgain: readAgain()
        }
    }

    func apply(_ action: ConnectionWriteState.Action) {
        switch action {
        case .none: break
        case .scheduleFlush: loop.state.needsFlush.append(self)
        case .failOverLimit: apply(lifecycle.fail(.outputLimit(limit: limits.maxQueuedOutputBytes)))
        }
    }

    func apply(_ action: ConnectionDeadlines.Action?) {
        switch action {
        case nil:
            break
        case let .arm(timer, delay)?:
            timers[timer]?.cancel()
            // Strong: a timer keeps its connection until it fires or is cancelled (at the close at the latest).
            timers[timer] = loop.schedule(after: delay) { [self] in timerFired(timer) }
        case .cancel(let timer)?:
            timers[timer]?.cancel()
            timers[timer] = nil
        }
    }

    private func timerFired(_ timer: ConnectionTimer) {
        timers[timer] = nil
        switch timer {
        case .establish:
            establishTimedOut()
        case .close:
            if deadlines.closeFired() { apply(lifecycle.fail(.closedByHost)) }
        }
    }
}
