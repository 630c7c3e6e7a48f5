import DeckProtocol
import DeckTransport
import Glibc
import LockGate

extension HostSignal {
    /// The signal the signalfd read (the host reads only these three).
    init(number: Int32) {
        self = number == SIGHUP ? .hangUp : number == SIGINT ? .interrupt : .terminate
    }
}

extension HostCore {
    /// Whether every plugin process is gone (true without plugins).
    var pluginsStopped: Bool { inputs.plugins?.isStopped ?? true }

    /// One step of the stop, as the rules ordered them (``HostState/beginStopping(because:)``).
    func perform(_ step: StopStep) {
        switch step {
        case .closeListeners:
            for listener in inputs.listeners { listener.close() }
        case .stopWatching:
            inputs.watcher?.cancel()
            inputs.probe?.stop()
        case .stopActions:
            services.runner.shutdown()
        case let .stopPlugins(grace, killGrace):
            let inbox = self.inbox
            inputs.plugins?.shutdown(grace: grace, killGrace: killGrace) { inbox.post(.stopProgress(pluginsStopped: true)) }
        case .holdReading:
            for session in sessions.values { session.hold(.stopping) }
        case .releaseCommits:
            handle(.releaseHeldCommits)
        case .checkProgress:
            stopProgressed()
        case .stopLoop:
            inputs.follows?.killNow()
            inputs.signals?.cancel()
            loop.stop()
        }
    }

    /// The disk or the plugins finished something while stopping: the rules
    /// decide whether the stop is complete.
    func stopProgressed() {
        guard stopping else { return }
        handle(.stopProgress(pluginsStopped: pluginsStopped))
    }
}
