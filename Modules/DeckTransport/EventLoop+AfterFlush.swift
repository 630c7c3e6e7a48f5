extension EventLoop {
    /// Runs `work` on the loop once the output this turn queued has been
    /// handed to the kernel (every connection's flush of the turn), before
    /// the loop waits again. For work that must not delay a reply but
    /// belongs to this turn: the host's log lines, whose `write` (and the
    /// wake-up of whoever reads the log) would otherwise come before the
    /// `ok` it follows. Call on the loop's thread; runs in the order given.
    public func afterFlush(_ work: @escaping () -> Void) {
        preconditionInLoop()
        state.afterFlush.append(work)
    }
}
