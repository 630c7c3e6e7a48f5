/// The life of one plugin (PLUGINS.md §3) as a state machine: inputs are
/// what happened (the process started, said ready, broke, exited, a timer
/// fired), each returns the actions the caller (``PluginSupervisor``) must
/// perform. No I/O and no clock of its own: tests drive it directly.
struct PluginLifecycle {
    enum Action: Hashable {
        /// Start the plugin's process; answer with ``spawned()`` or ``spawnFailed(_:now:)``.
        case spawn
        /// Send `hello` and wait this long for `ready`.
        case sendHello(readyTimeout: Duration)
        /// The plugin said `ready`: stop waiting, send `buttons`, then the presses held meanwhile.
        case becameReady
        /// Make the process go now (it broke): SIGTERM to its group, SIGKILL if it lingers.
        case terminate
        /// Send `shutdown`; SIGTERM after `grace`, then SIGKILL.
        case sendShutdown(grace: Duration)
        /// The plugin failed (`reason`); restart it after `delay`.
        case scheduleRestart(after: Duration, reason: String)
        /// The plugin failed too often: it stays down until ``reset()``.
        case markFailed(reason: String)
        /// Forget the pending restart (the plugin is being stopped).
        case cancelRestart
        /// The plugin is stopped for good; the supervisor may be dropped.
        case stopped
    }

    private enum State: Hashable {
        /// No process: not needed yet.
        case idle
        /// Process started, `hello` sent, waiting for `ready`.
        case starting
        /// `ready` came at this time.
        case running(since: ContinuousClock.Instant)
        /// The process broke (`reason`) and was told to go; waiting for it to exit.
        case terminating(reason: String)
        /// Waiting to restart after a failure.
        case restarting(reason: String)
        /// Down until the next reload.
        case failed(reason: String)
        /// `shutdown` sent (or the process was already going); waiting for it to exit.
        case stopping
        /// Stopped for good.
        case stopped
    }

    let policy: PluginPolicy
    private var state = State.idle
    /// When recent failures happened, oldest first (within the failure window).
    private var failures: [ContinuousClock.Instant] = []
    /// Failures in a row, for the restart delay.
    private var consecutiveFailures = 0

    init(policy: PluginPolicy) {
        self.policy = policy
    }

    // MARK: What the supervisor asks

    /// True while a process exists (started and not yet reaped).
    var hasProcess: Bool {
        switch state {
        case .starting, .running, .terminating, .stopping: true
        case .idle, .restarting, .failed, .stopped: false
        }
    }

    /// True once `ready` came and until the process goes.
    var isReady: Bool {
        if case .running = state { return true }
        return false
    }

    /// A press arriving now: deliver, keep until ready, or refuse with a
    /// reason (a predicate: "is restarting after it exited with status 1").
    enum PressDisposition: Hashable {
        case deliver
        case hold
        /// It is restarting: hold the press for the restart, a bounded while
        /// (``PluginPolicy/restartWait``); the text says why if it runs out.
        case wait(String)
        case refuse(String)
    }

    var pressDisposition: PressDisposition {
        switch state {
        case .running: .deliver
        case .idle, .starting: .hold
        case .terminating(let reason), .restarting(let reason): .wait("is restarting after it \(reason)")
        case .failed(let reason): .refuse("failed: \(reason); it stays down until the next reload")
        case .stopping, .stopped: .refuse("is being stopped")
        }
    }

    /// The `state` and `message` of `deckctl status` (PluginStatus).
    var status: (state: String, message: String) {
        switch state {
        case .idle: ("stopped", "")
        case .starting: ("starting", "")
        case .running: ("running", "")
        case .terminating(let reason): ("restarting", "it \(reason)")
        case .restarting(let reason): ("restarting", "it \(reason)")
        case .failed(let reason): ("failed", "it \(reason); \(policy.failureLimit) failures within \(Self.words(policy.failureWindow)), so it stays down until the next reload")
        case .stopping: ("stopped", "stopping")
        case .stopped: ("stopped", "")
        }
    }

    // MARK: Inputs

    /// A button needs the plugin.
    mutating func start() -> [Action] {
        guard state == .idle else { return [] }
        state = .starting
        return [.spawn]
    }

    /// The process is running.
    mutating func spawned() -> [Action] {
        guard state == .starting else { return [] }
        return [.sendHello(readyTimeout: policy.readyTimeout)]
    }

    /// The process could not be started.
    mutating func spawnFailed(_ reason: String, now: ContinuousClock.Instant) -> [Action] {
        guard state == .starting else { return [] }
        return failed("could not be started: \(reason)", now: now)
    }

    /// The plugin said `ready`.
    mutating func readyReceived(now: ContinuousClock.Instant) -> [Action] {
        guard state == .starting else { return [] }
        state = .running(since: now)
        return [.becameReady]
    }

    /// `ready` did not come in time.
    mutating func readyTimedOut() -> [Action] {
        guard state == .starting else { return [] }
        return broke("did not say ready within \(Self.words(policy.readyTimeout))")
    }

    /// The plugin closed its output, or its input broke (it stopped reading
    /// for good): it cannot be talked to any more.
    mutating func broke(_ reason: String) -> [Action] {
        switch state {
        case .starting, .running:
            state = .terminating(reason: reason)
            return [.terminate]
        case .idle, .terminating, .restarting, .failed, .stopping, .stopped:
            return []
        }
    }

    /// The process ended (`how`: "exited with status 1", "was killed by signal 9").
    mutating func exited(_ how: String, now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .starting, .running:
            return failed(how, now: now)
        case .terminating(let reason):
            return failed(reason, now: now)
        case .stopping:
            state = .stopped
            return [.stopped]
        case .idle, .restarting, .failed, .stopped:
            return []
        }
    }

    /// The restart delay passed.
    mutating func restartDue() -> [Action] {
        guard case .restarting = state else { return [] }
        state = .starting
        return [.spawn]
    }

    /// Stop the plugin for good (the host stops, or a reload removed it).
    mutating func stop() -> [Action] {
        switch state {
        case .starting, .running:
            state = .stopping
            return [.sendShutdown(grace: policy.shutdownGrace)]
        case .terminating:
            state = .stopping  // already told to go; its exit ends it
            return []
        case .restarting:
            state = .stopped
            return [.cancelRestart, .stopped]
        case .idle, .failed:
            state = .stopped
            return [.stopped]
        case .stopping, .stopped:
            return []
        }
    }

    /// A reload: a failed plugin may be started again, and past failures are forgotten.
    mutating func reset() {
        failures = []
        consecutiveFailures = 0
        if case .failed = state { state = .idle }
    }

    // MARK: Failures

    private mutating func failed(_ reason: String, now: ContinuousClock.Instant) -> [Action] {
        if case .running(let since) = state, now - since >= policy.stableAfter { consecutiveFailures = 0 }
        consecutiveFailures += 1
        failures.append(now)
        let window = policy.failureWindow
        failures.removeAll { now - $0 >= window }
        if failures.count >= policy.failureLimit {
            state = .failed(reason: reason)
            return [.markFailed(reason: reason)]
        }
        state = .restarting(reason: reason)
        return [.scheduleRestart(after: policy.restartDelay(afterFailures: consecutiveFailures), reason: reason)]
    }

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
