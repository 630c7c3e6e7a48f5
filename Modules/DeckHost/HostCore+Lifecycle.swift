import DeckProtocol
import DeckTransport
import Glibc
import LockGate

extension HostCore {
    /// A signal read from the signalfd.
    func received(signal: Int32) {
        switch signal {
        case SIGHUP:
            logger.info("SIGHUP: reloading the profiles and the plugins")
            reload(requestedBy: nil, id: nil, plugins: true)
        default:
            beginStopping(because: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    /// A change of the lock probe's answer (posted from the probe's thread).
    func probeReported(_ result: LockProbe.Result) {
        switch result {
        case .failed(let message):
            logger.warning(message + "; the lock stays as it was")
        case .reading(let reading):
            logger.debug("the lock probe says \(reading)")
            if case .broadcast(let locked, let source) = lock.probeReported(reading) {
                submit(Outcome(Effect.lockChanged(locked, source: source, by: nil,
                    log: locked ? "locked: the desktop session is locked" : "unlocked: the desktop session is unlocked")))
            }
        }
    }

    /// Stops accepting and reading, lets the edits in hand reach the disk and
    /// their replies go out, stops every plugin, then stops the loop (within
    /// 2 s whatever happens).
    func beginStopping(because reason: String) {
        guard !stopping else { return }
        stopping = true
        logger.info("\(reason): stopping")
        for listener in listeners { listener.close() }
        watcher?.cancel()
        probe?.stop()
        runner.shutdown()
        // PLUGINS.md gives a plugin 2 s after `shutdown`; CLI.md gives the
        // host 2 s to exit. The host's own deadline wins: SIGTERM after 1 s,
        // SIGKILL 0.4 s later, so every plugin is gone before the host.
        plugins?.shutdown(grace: .milliseconds(1000), killGrace: .milliseconds(400)) { [weak self] in
            self?.finishStoppingIfReady()
        }
        for session in sessions.values where session.connection.isOpen { session.connection.pauseReading() }
        releaseGather()
        finishStoppingIfReady()
        guard !stopped else { return }
        loop.schedule(after: .milliseconds(1500)) { [weak self] in
            guard let self, !self.stopped else { return }
            if !self.pipeline.isEmpty {
                self.logger.warning("the disk did not finish the last edits in time; stopping without their replies")
            }
            if self.plugins?.isStopped == false {
                self.logger.warning("plugins are still stopping; they are killed as the host exits")
            }
            self.finishStopping()
        }
    }

    /// Stops the loop once the edits in hand are out and every plugin is gone.
    func finishStoppingIfReady() {
        guard stopping, pipeline.isEmpty, plugins?.isStopped ?? true else { return }
        finishStopping()
    }

    func finishStopping() {
        guard !stopped else { return }
        stopped = true
        signals?.cancel()
        loop.stop()
    }
}
