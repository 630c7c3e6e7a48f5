/// The supervisor's timers, one of each at most. ``PluginLifecycle`` decides
/// when each is armed and cancelled (``PluginLifecycle/Action/armTimer(_:after:)``,
/// ``PluginLifecycle/Action/cancelTimer(_:)``); the supervisor only keeps the
/// loop's handles and reports a fire back (``PluginLifecycle/timerFired(_:)``).
enum PluginTimer: Hashable, CaseIterable {
    /// `hello` was sent: `ready` is due within ``PluginPolicy/readyTimeout``.
    case ready
    /// `shutdown` was sent: SIGTERM after the shutdown grace.
    case terminate
    /// SIGTERM was sent: SIGKILL after the kill grace.
    case kill
    /// The restart backoff after a failure.
    case restart
    /// A pipe to the plugin ended while the process runs: the grace for its
    /// exit to show (``PluginPolicy/closedPipeGrace``).
    case brokenPipe
    /// No pidfd (Linux before 5.3): look for the exit every so often.
    case exitPoll

    /// The timers that belong to one process: its exit cancels them.
    static let processTimers: [PluginTimer] = [.ready, .terminate, .kill, .brokenPipe, .exitPoll]
}

extension PluginLifecycle {
    /// How often the exit is looked for without a pidfd.
    static let exitPollInterval = Duration.milliseconds(100)

    /// `5 s`, `1 minute`, `250 ms`: a duration for a sentence.
    static func words(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 {
            if seconds == 60 { return "1 minute" }
            return "\(seconds) s"
        }
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "\(milliseconds) ms"
    }
}
