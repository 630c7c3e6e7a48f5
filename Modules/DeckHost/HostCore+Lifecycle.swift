import DeckProtocol
import DeckTransport
import Glibc
import LockGate

extension HostCore {
    /// A signal read from the signalfd, as the rules' input.
    func received(signal: Int32) {
        handle(.signal(signal == SIGHUP ? .hangUp : signal == SIGINT ? .interrupt : .terminate))
    }

    /// A change of the lock probe's answer (posted from the probe's thread).
    func probeReported(_ result: LockProbe.Result) {
        handle(.probe(result))
    }

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
            inputs.plugins?.shutdown(grace: grace, killGrace: killGrace) { [weak self] in self?.stopProgressed() }
        case .holdReading:
            for session in sessions.values { session.hold(.stopping) }
        case .releaseCommits:
            run(commits.release())
        case .checkProgress:
            stopProgressed()
        case .armDeadline(let delay):
            loop.schedule(after: delay) { [weak self] in
                guard let self else { return }
                self.handle(.stopDeadline(pluginsStopped: self.pluginsStopped))
            }
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
