import DeckPluginKit
import DeckProtocol
import DeckTransport
import Glibc

/// What a supervisor tells its owner, always on the event loop's thread.
protocol PluginSupervisorDelegate: AnyObject {
    func pluginLog(_ level: PluginLogLevel, _ message: String)
    /// The plugin set a title on one of its buttons (already checked).
    func plugin(_ supervisor: PluginSupervisor, setTitle title: String?, page: Int, index: Int)
    /// A face message for these of its buttons (matched, never empty).
    func plugin(_ supervisor: PluginSupervisor, face message: PluginMessage, for buttons: [PluginButton])
    func pluginStatusChanged(_ supervisor: PluginSupervisor)
    /// The plugin's process is gone (its titles no longer mean anything).
    func pluginProcessEnded(_ supervisor: PluginSupervisor)
    /// The plugin is stopped for good.
    func pluginStopped(_ supervisor: PluginSupervisor)
}

/// Runs one plugin: its process, its pipes, its timers, driven by the event
/// loop and by ``PluginLifecycle``'s decisions. Confined to the loop thread.
///
/// Everything is non-blocking on the loop: the plugin's output and stderr
/// and its exit (a pidfd) are watched for readability, its input is written
/// without blocking with the rest queued in a bounded ``PluginOutbox``, and
/// timers do the waiting. No thread per plugin, and nothing a plugin does or
/// fails to do can make the loop wait.
final class PluginSupervisor {
    let manifest: PluginManifest
    var id: String { manifest.id }
    let loop: EventLoop
    let policy: PluginPolicy
    let hello: PluginHello
    weak var delegate: (any PluginSupervisorDelegate)?

    var lifecycle: PluginLifecycle
    var process: PluginProcess?
    var outputWatch: FDWatch?
    var errorWatch: FDWatch?
    var exitWatch: FDWatch?
    var inputWatch: FDWatch?
    var outbox: PluginOutbox
    var outputLines = LineSplitter(limit: PluginProtocol.maximumImageLineBytes)
    var errorLines = LineSplitter(limit: PluginProtocol.maximumLineBytes)
    var readBuffer: [UInt8] = []
    /// The loop's handles of the timers ``PluginLifecycle`` armed.
    var timers: [PluginTimer: LoopTimer] = [:]
    var budget: LogBudget
    /// Presses that came before `ready`, in order, with who to tell.
    var held: [HeldPress] = []
    /// Numbers the held presses, so a restart wait's deadline finds its own.
    private var heldCount = 0
    /// This plugin's buttons in the live layout.
    private(set) var buttons: [PluginButton] = []
    /// What the running process was last sent (nil: nothing yet).
    var sentButtons: [PluginButton]?
    /// A `buttons` line was dropped because the plugin was not reading: send
    /// the current set once it reads again.
    var buttonsLost = false
    /// Messages dropped since the plugin stopped reading.
    var dropped = 0
    private var reportedStatus: PluginStatus?

    init(manifest: PluginManifest, loop: EventLoop, policy: PluginPolicy, hello: PluginHello) {
        self.manifest = manifest
        self.loop = loop
        self.policy = policy
        self.hello = hello
        lifecycle = PluginLifecycle(policy: policy)
        outbox = PluginOutbox(maximumLines: policy.maximumQueuedLines, maximumBytes: policy.maximumQueuedBytes)
        budget = LogBudget(capacity: policy.logBudget, window: policy.logWindow)
    }

    deinit {
        // The manager drops a supervisor only once it is stopped; this is a
        // safety net so that no plugin outlives its supervisor or stays a zombie.
        killNow()
    }

    /// SIGKILL to the plugin's group and a blocking reap (it is immediate
    /// after SIGKILL); only when the loop no longer runs the supervisor.
    func killNow() {
        guard let process else { return }
        process.signalGroup(SIGKILL)
        var status: Int32 = 0
        while waitpid(process.pid, &status, 0) < 0 && errno == EINTR {}
        process.close()
        self.process = nil
    }

    /// How the plugin is doing, for `deckctl status` and `deckctl plugins`.
    var status: PluginStatus {
        let (state, message) = lifecycle.status
        return PluginStatus(id: id, state: state, message: message.isEmpty ? selfReported ?? "" : message, pid: process.map { Int($0.pid) },
                            restarts: max(0, starts - 1) + restartsBefore, lastExit: lastExit)
    }

    /// What the running process last said of itself (`setStatus`), for `deckctl plugins`.
    var selfReported: String?
    /// Starts tried, whether or not a process came of them; each after the
    /// first is a restart, so a program that cannot be run five times over
    /// shows 4 restarts, as one that exits five times does.
    var starts = 0
    /// Restarts counted by the supervisor this one replaced (a reload or `deckctl restart`), plus one for that.
    var restartsBefore = 0
    /// How the last process ended.
    var lastExit: String?

    // MARK: Inputs from the manager

    /// A button of the live layout needs the plugin: start it if it is not running.
    func start() {
        perform(lifecycle.start())
    }

    /// The plugin's buttons in the live layout changed (or not: then nothing is sent).
    func setButtons(_ buttons: [PluginButton]) {
        self.buttons = buttons
        if lifecycle.isReady && sentButtons != buttons { sendButtons() }
    }

    /// Hands a press to the plugin, or holds it until `ready` (starting the
    /// plugin when `mayStart`), or refuses it; `done` learns which (at once,
    /// or when the plugin becomes ready or fails).
    func deliver(_ press: PluginPress, mayStart: Bool, done: @escaping (PluginPressResult) -> Void) {
        switch lifecycle.pressDisposition {
        case .deliver:
            done(sendPress(press))
        case .hold:
            guard held.count < policy.maximumHeldPresses else {
                done(.dropped("already has \(policy.maximumHeldPresses) presses waiting for it to start"))
                return
            }
            heldCount += 1
            held.append(HeldPress(number: heldCount, press: press, done: done, waitsForRestart: false))
            if mayStart { start() }
        case .wait(let reason):
            // Issue 17 §2: a press while the plugin restarts waits for it
            // (bounded), instead of "could not reach plugin: it is restarting".
            guard held.count < policy.maximumHeldPresses else {
                done(.dropped("already has \(policy.maximumHeldPresses) presses waiting for it to restart"))
                return
            }
            heldCount += 1
            let number = heldCount
            held.append(HeldPress(number: number, press: press, done: done, waitsForRestart: true))
            let wait = policy.restartWait
            _ = loop.schedule(after: wait) { [weak self] in
                guard let self, let at = held.firstIndex(where: { $0.number == number }) else { return }
                let late = held.remove(at: at)
                late.done(.unavailable("\(reason) and was not back within \(PluginLifecycle.words(wait))"))
            }
        case .refuse(let reason):
            done(.unavailable(reason))
        }
    }

    /// Stops the plugin for good: `shutdown`, then SIGTERM after `grace`,
    /// then SIGKILL after `killGrace` (nil: the policy's).
    func stop(grace: Duration? = nil, killGrace: Duration? = nil) {
        perform(lifecycle.stop(grace: grace, killGrace: killGrace))
    }

    /// A reload: a failed plugin may start again.
    func reset() {
        lifecycle.reset()
        reportStatus()
    }

    // MARK: Performing the lifecycle's actions

    func perform(_ actions: [PluginLifecycle.Action]) {
        for action in actions {
            switch action {
            case .spawn:
                spawn()
            case .sendHello:
                send(.hello(hello))
            case .becameReady:
                becameReady()
            case .signalTerminate:
                process?.signalGroup(SIGTERM)
            case .kill:
                guard let process else { break }
                log(.warning, "plugin '\(id)' did not exit after SIGTERM; killing it")
                process.signalGroup(SIGKILL)
            case .sendShutdown:
                send(.shutdown)
            case .checkExit:
                checkExit()
            case let .announceRestart(delay, reason):
                log(.warning, "plugin '\(id)' \(reason); starting it again in \(PluginLifecycle.words(delay))")
            case .markFailed(let reason):
                log(.error, "plugin '\(id)' \(reason); it failed \(policy.failureLimit) times within \(PluginLifecycle.words(policy.failureWindow)), so it stays down until the next reload")
                failHeld("failed")
            case let .armTimer(timer, delay):
                timers[timer]?.cancel()
                timers[timer] = loop.schedule(after: delay) { [weak self] in self?.timerFired(timer) }
            case .cancelTimer(let timer):
                timers.removeValue(forKey: timer)?.cancel()
            case .stopped:
                // Its `stopped` first: the delegate may start the process that replaces it.
                reportStatus()
                delegate?.pluginStopped(self)
            }
        }
        reportStatus()
    }

    /// A timer fired. Timers fire at the end of a loop turn: after a long turn
    /// (a busy host) a `ready` that came in time may still wait in the pipe,
    /// and an exit within the grace may not have been seen yet. Both are read
    /// first, so they win over the deadline.
    private func timerFired(_ timer: PluginTimer) {
        timers[timer] = nil
        switch timer {
        case .ready:
            if outputWatch != nil { readOutput() }
        case .brokenPipe:
            if process?.hasExited == true { checkExit() }
        case .terminate, .kill, .restart, .exitPoll:
            break
        }
        perform(lifecycle.timerFired(timer))
    }

    private func spawn() {
        starts += 1
        do {
            let process = try PluginProcess.spawn(manifest.arguments, in: manifest.folder, state: policy.stateFolder(for: manifest.id))
            self.process = process
            readBuffer = [UInt8](repeating: 0, count: policy.readBudget)
            do {
                try watch(process)
            } catch {
                // The loop is stopping: nothing can be watched any more.
                process.signalGroup(SIGKILL)
                tearDown()
                perform(lifecycle.spawnFailed("the event loop is stopping", now: .now))
                return
            }
            log(.info, "plugin '\(id)' started (pid \(process.pid))")
            perform(lifecycle.spawned(pollsExit: process.exitDescriptor < 0))
        } catch {
            failHeld("could not be started")
            perform(lifecycle.spawnFailed(Self.reason(error), now: .now))
        }
    }

    private func watch(_ process: PluginProcess) throws(TransportError) {
        outputWatch = try loop.watchReadable(process.output) { [weak self] in self?.readOutput() }
        errorWatch = try loop.watchReadable(process.errors) { [weak self] in self?.readErrors() }
        // Without a pidfd (Linux before 5.3) the lifecycle polls for the exit.
        if process.exitDescriptor >= 0 {
            exitWatch = try loop.watchReadable(process.exitDescriptor) { [weak self] in self?.checkExit() }
        }
    }

    private func becameReady() {
        log(.info, "plugin '\(id)' is ready")
        sendButtons()
        let waiting = held
        held = []
        for entry in waiting { entry.done(sendPress(entry.press)) }
    }

    /// Presses held for `ready` that will not get it. With `keepingRestartWaits`
    /// (the process ended and will be started again), those waiting for a
    /// restart keep waiting until their own deadline.
    func failHeld(_ reason: String, keepingRestartWaits: Bool = false) {
        let waiting = held.filter { !(keepingRestartWaits && $0.waitsForRestart) }
        held.removeAll { !(keepingRestartWaits && $0.waitsForRestart) }
        for entry in waiting { entry.done(.unavailable(reason)) }
    }

    func reportStatus() {
        let now = status
        guard now != reportedStatus else { return }
        reportedStatus = now
        delegate?.pluginStatusChanged(self)
    }

    func log(_ level: PluginLogLevel, _ message: String) {
        delegate?.pluginLog(level, message)
    }

    static func reason(_ error: any Error) -> String {
        if case .spawnFailed(_, let reason) = error as? DeckPluginsError { return reason }
        return "\(error)"
    }
}

/// What became of a press handed to a plugin.
public enum PluginPressResult: Hashable, Sendable {
    /// Written to the plugin's input (or queued for it, in order).
    case delivered
    /// The plugin cannot take presses now; why, as a predicate about it
    /// ("is restarting after it exited with status 1", "is not installed (…)").
    case unavailable(String)
    /// The plugin is there but could not take the press (as a predicate:
    /// "is not reading its input, so the press was dropped").
    case dropped(String)
}

/// A press waiting for its plugin's `ready`.
struct HeldPress {
    var number: Int
    var press: PluginPress
    var done: (PluginPressResult) -> Void
    /// Came while the plugin was restarting: it waits at most ``PluginPolicy/restartWait``.
    var waitsForRestart: Bool
}
