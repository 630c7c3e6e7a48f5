import DeckProtocol
import DeckTransport
import Glibc
import LockGate

extension HostCore {
    /// A signal read from the signalfd.
    func received(signal: Int32) {
        switch signal {
        case SIGHUP:
            logger.info("SIGHUP: reloading the profiles")
            reload(requestedBy: nil, id: nil)
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
                submit(Outcome([.broadcastLock(locked), .event(.lock(locked: locked, source: source, by: nil)),
                                .log(.info, locked ? "locked: the desktop session is locked" : "unlocked: the desktop session is unlocked")]))
            }
        }
    }

    /// Stops accepting and reading, lets the edits in hand reach the disk and
    /// their replies go out, then stops the loop (within 2 s whatever happens).
    func beginStopping(because reason: String) {
        guard !stopping else { return }
        stopping = true
        logger.info("\(reason): stopping")
        for listener in listeners { listener.close() }
        watcher?.cancel()
        probe?.stop()
        runner.shutdown()
        for session in sessions.values where session.connection.isOpen { session.connection.pauseReading() }
        releaseGather()
        if pipeline.isEmpty {
            finishStopping()
        } else {
            loop.schedule(after: .milliseconds(1500)) { [weak self] in
                guard let self, !self.stopped else { return }
                self.logger.warning("the disk did not finish the last edits in time; stopping without their replies")
                self.finishStopping()
            }
        }
    }

    func finishStopping() {
        guard !stopped else { return }
        stopped = true
        signals?.cancel()
        loop.stop()
    }
}
