extension EventLoop {
    /// Runs `action` on the loop once `delay` has passed (at the earliest;
    /// never before). Timers due at the same moment fire in the order they
    /// were scheduled. Call on the loop's thread; keep the returned timer to
    /// cancel it. While no timer is pending the loop has no timeout at all.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> LoopTimer {
        preconditionInLoop()
        return state.timers.schedule(deadline: Sys.now() &+ Sys.nanoseconds(delay), action)
    }
}
