/// The life of one plugin (PLUGINS.md §3) as a state machine: inputs are
/// what happened (the process started, said ready, broke, exited, a timer
/// fired), each returns the actions the caller (``PluginSupervisor``) must
/// perform, in order. No I/O and no clock of its own: tests drive it
/// directly. It also decides every timer of the supervisor (``PluginTimer``):
/// which is armed when, and which a transition cancels.
struct PluginLifecycle {
    enum Action: Hashable {
        /// Start the plugin's process; answer with ``spawned(pollsExit:)`` or ``spawnFailed(_:now:)``.
        case spawn
        /// Send `hello` (the ready timer is armed alongside).
        case sendHello
        /// The plugin said `ready`: send `buttons`, then the presses held meanwhile.
        case becameReady
        /// SIGTERM to the plugin's group (the kill timer is armed alongside).
        case signalTerminate
        /// The kill grace ran out: SIGKILL to the plugin's group.
        case kill
        /// Send `shutdown` (the terminate timer is armed alongside).
        case sendShutdown
        /// Look for the process's exit now (it is reaped and reported with ``exited(_:now:)`` if it ended).
        case checkExit
        /// The plugin failed (`reason`) and starts again after `after` (the restart timer is armed alongside).
        case announceRestart(after: Duration, reason: String)
        /// The plugin failed too often: it stays down until ``reset()``.
        case markFailed(reason: String)
        /// Arm `timer` to fire after this long (replacing one armed before);
        /// its fire comes back as ``timerFired(_:)``.
        case armTimer(PluginTimer, after: Duration)
        /// Cancel `timer`; it must not fire.
        case cancelTimer(PluginTimer)
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
    /// The timers the supervisor has armed and not seen fire or cancelled.
    private(set) var armed: Set<PluginTimer> = []
    /// Why a pipe ended, while the broken-pipe grace runs.
    private var brokenPipe: String?
    /// Shorter timings for a stop that must fit a deadline (the host's own 2 s).
    private var shutdownGrace: Duration
    private var killGrace: Duration

    init(policy: PluginPolicy) {
        self.policy = policy
        shutdownGrace = policy.shutdownGrace
        killGrace = policy.killGrace
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
        case .stopping: ("stopping", "")
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

    /// The process is running; `pollsExit` when there is no pidfd to watch for its exit.
    mutating func spawned(pollsExit: Bool = false) -> [Action] {
        guard state == .starting else { return [] }
        var actions: [Action] = [.sendHello, arm(.ready, after: policy.readyTimeout)]
        if pollsExit { actions.append(arm(.exitPoll, after: Self.exitPollInterval)) }
        return actions
    }

    /// The process could not be started.
    mutating func spawnFailed(_ reason: String, now: ContinuousClock.Instant) -> [Action] {
        guard state == .starting else { return [] }
        return cancel(PluginTimer.processTimers) + failed("could not be started: \(reason)", now: now)
    }

    /// The plugin said `ready`.
    mutating func readyReceived(now: ContinuousClock.Instant) -> [Action] {
        guard state == .starting else { return [] }
        state = .running(since: now)
        return cancel([.ready]) + [.becameReady]
    }

    /// The plugin closed its output, or its input broke (it stopped reading
    /// for good): it cannot be talked to any more.
    mutating func broke(_ reason: String) -> [Action] {
        switch state {
        case .starting, .running:
            state = .terminating(reason: reason)
            return cancel([.ready, .brokenPipe]) + terminateNow()
        case .idle, .terminating, .restarting, .failed, .stopping, .stopped:
            return []
        }
    }

    /// A pipe to the plugin ended (`reason`) while its process has not been
    /// seen to exit. A plugin that exits closes its pipes a moment before the
    /// exit shows: the grace gives the exit that moment, so the log says how
    /// it ended ("exited with status 4") rather than which pipe noticed first.
    mutating func pipeEnded(_ reason: String) -> [Action] {
        switch state {
        case .starting, .running:
            guard brokenPipe == nil else { return [] }
            brokenPipe = reason
            return [arm(.brokenPipe, after: policy.closedPipeGrace)]
        case .idle, .terminating, .restarting, .failed, .stopping, .stopped:
            return []
        }
    }

    /// The process ended (`how`: "exited with status 1", "was killed by signal 9").
    mutating func exited(_ how: String, now: ContinuousClock.Instant) -> [Action] {
        let cancelled = cancel(PluginTimer.processTimers)
        switch state {
        case .starting, .running:
            return cancelled + failed(how, now: now)
        case .terminating(let reason):
            return cancelled + failed(reason, now: now)
        case .stopping:
            state = .stopped
            return cancelled + [.stopped]
        case .idle, .restarting, .failed, .stopped:
            return cancelled
        }
    }

    /// A timer armed by an earlier action fired. The supervisor first reads
    /// what the process did in time (a `ready` in the pipe, an exit not seen
    /// yet): timers fire at the end of a loop turn, and after a long turn
    /// that may still wait to be read.
    mutating func timerFired(_ timer: PluginTimer) -> [Action] {
        // A fire after a cancel (or a second one) is stale.
        guard armed.remove(timer) != nil else { return [] }
        switch timer {
        case .ready:
            guard state == .starting else { return [] }
            return broke("did not say ready within \(Self.words(policy.readyTimeout))")
        case .terminate:
            return terminateNow()
        case .kill:
            return hasProcess ? [.kill] : []
        case .restart:
            guard case .restarting = state else { return [] }
            state = .starting
            return [.spawn]
        case .brokenPipe:
            guard let reason = brokenPipe else { return [] }
            brokenPipe = nil
            return broke(reason)
        case .exitPoll:
            // Armed again first: the check may find the exit, which cancels it.
            return hasProcess ? [arm(.exitPoll, after: Self.exitPollInterval), .checkExit] : []
        }
    }

    /// Stop the plugin for good (the host stops, or a reload removed it):
    /// `shutdown`, SIGTERM after `grace`, SIGKILL after `killGrace` (nil: the policy's).
    mutating func stop(grace: Duration? = nil, killGrace: Duration? = nil) -> [Action] {
        if let grace { shutdownGrace = grace }
        if let killGrace { self.killGrace = killGrace }
        switch state {
        case .starting, .running:
            state = .stopping
            return cancel([.ready, .brokenPipe]) + [.sendShutdown, arm(.terminate, after: shutdownGrace)]
        case .terminating:
            state = .stopping  // already told to go; its exit ends it
            return []
        case .restarting:
            state = .stopped
            return cancel([.restart]) + [.stopped]
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

    // MARK: Timers and failures

    private mutating func arm(_ timer: PluginTimer, after delay: Duration) -> Action {
        armed.insert(timer)
        return .armTimer(timer, after: delay)
    }

    /// Cancels those of `timers` that are armed, in the order given.
    private mutating func cancel(_ timers: [PluginTimer]) -> [Action] {
        var actions: [Action] = []
        for timer in timers where armed.remove(timer) != nil {
            actions.append(.cancelTimer(timer))
        }
        if timers.contains(.brokenPipe) { brokenPipe = nil }
        return actions
    }

    /// SIGTERM now and SIGKILL after the grace, unless that is under way.
    private mutating func terminateNow() -> [Action] {
        guard hasProcess, !armed.contains(.kill) else { return cancel([.terminate]) }
        return cancel([.terminate]) + [.signalTerminate, arm(.kill, after: killGrace)]
    }

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
        let delay = policy.restartDelay(afterFailures: consecutiveFailures)
        return [.announceRestart(after: delay, reason: reason), arm(.restart, after: delay)]
    }
}
