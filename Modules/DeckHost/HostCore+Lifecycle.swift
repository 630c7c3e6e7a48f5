import DeckProtocol
import DeckTransport
import Glibc
import LockGate

extension HostCore {
    /// A signal read from the signalfd.
    func received(signal: Int32) {
        switch signal {
        case SIGHUP:
            services.logger.info("SIGHUP: reloading the profiles and the plugins")
            reload(requestedBy: nil, id: nil, plugins: true)
        default:
            beginStopping(because: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    /// A change of the lock probe's answer (posted from the probe's thread).
    func probeReported(_ result: LockProbe.Result) {
        handle(.probe(result))
    }

    /// Stops accepting and reading, lets the edits in hand reach the disk and
    /// their replies go out, stops every plugin, then stops the loop (within
    /// 2 s whatever happens).
    func beginStopping(because reason: String) {
        guard shutdown.begin() else { return }
        services.logger.info("\(reason): stopping")
        for listener in inputs.listeners { listener.close() }
        inputs.watcher?.cancel()
        inputs.probe?.stop()
        services.runner.shutdown()
        inputs.follows?.stopAll()
        // PLUGINS.md gives a plugin 2 s after `shutdown`; CLI.md gives the
        // host 2 s to exit. The host's own deadline wins: SIGTERM after 1 s,
        // SIGKILL 0.4 s later, so every plugin is gone before the host.
        inputs.plugins?.shutdown(grace: .milliseconds(1000), killGrace: .milliseconds(400)) { [weak self] in
            self?.finishStoppingIfReady()
        }
        for session in sessions.values { session.hold(.stopping) }
        run(commits.release())
        finishStoppingIfReady()
        guard !shutdown.isStopped else { return }
        loop.schedule(after: .milliseconds(1500)) { [weak self] in
            guard let self, let warnings = self.shutdown.deadlinePassed(
                pipelineEmpty: self.commits.isEmpty, pluginsStopped: self.inputs.plugins?.isStopped ?? true) else { return }
            for warning in warnings { self.services.logger.warning(warning) }
            self.stopLoop()
        }
    }

    /// Stops the loop once the edits in hand are out and every plugin is gone.
    func finishStoppingIfReady() {
        guard shutdown.finishIfReady(pipelineEmpty: commits.isEmpty, pluginsStopped: inputs.plugins?.isStopped ?? true) else { return }
        stopLoop()
    }

    private func stopLoop() {
        inputs.follows?.killNow()
        inputs.signals?.cancel()
        loop.stop()
    }
}
