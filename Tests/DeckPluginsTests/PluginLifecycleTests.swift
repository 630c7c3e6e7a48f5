@testable import DeckPlugins
import Testing

/// The state machine of one plugin's life, driven directly with made-up times.
@Suite struct PluginLifecycleTests {
    typealias Action = PluginLifecycle.Action
    let start = ContinuousClock.now
    let policy = PluginPolicy()

    private func at(_ seconds: Double) -> ContinuousClock.Instant {
        start + .milliseconds(Int64(seconds * 1000))
    }

    /// Starts the plugin and brings it to `ready` at `time`.
    private func running(_ lifecycle: inout PluginLifecycle, at time: Double) {
        #expect(lifecycle.start() == [.spawn] || lifecycle.timerFired(.restart) == [.spawn])
        #expect(lifecycle.spawned() == [.sendHello, .armTimer(.ready, after: .seconds(5))])
        #expect(lifecycle.readyReceived(now: at(time)) == [.cancelTimer(.ready), .becameReady])
        #expect(lifecycle.isReady)
    }

    @Test func startHelloReady() {
        var lifecycle = PluginLifecycle(policy: policy)
        #expect(lifecycle.status.state == "stopped")
        #expect(lifecycle.pressDisposition == .hold, "a press before the start waits for ready")
        #expect(lifecycle.start() == [.spawn])
        #expect(lifecycle.start() == [], "starting twice starts once")
        #expect(lifecycle.status.state == "starting")
        #expect(lifecycle.spawned() == [.sendHello, .armTimer(.ready, after: .seconds(5))])
        #expect(lifecycle.pressDisposition == .hold)
        #expect(lifecycle.readyReceived(now: at(0)) == [.cancelTimer(.ready), .becameReady])
        #expect(lifecycle.readyReceived(now: at(1)) == [], "a second ready changes nothing")
        #expect(lifecycle.status.state == "running")
        #expect(lifecycle.pressDisposition == .deliver)
    }

    /// 1 s, doubling, until the fifth failure within a minute marks it failed.
    @Test func crashLoopBacksOffThenFails() {
        var lifecycle = PluginLifecycle(policy: policy)
        var time = 0.0
        running(&lifecycle, at: time)
        var delays: [Duration] = []
        for attempt in 1...5 {
            let actions = lifecycle.exited("exited with status 3", now: at(time))
            if attempt < 5 {
                guard case .announceRestart(let delay, let reason)? = actions.first else {
                    Issue.record("attempt \(attempt): \(actions)")
                    return
                }
                #expect(reason == "exited with status 3")
                #expect(actions == [.announceRestart(after: delay, reason: reason), .armTimer(.restart, after: delay)])
                #expect(lifecycle.status == ("restarting", "it exited with status 3"))
                if case .wait(let why) = lifecycle.pressDisposition {
                    #expect(why == "is restarting after it exited with status 3")
                } else {
                    Issue.record("a press while restarting waits for it (bounded)")
                }
                delays.append(delay)
                time += Double(delay.components.seconds) + 0.2
                running(&lifecycle, at: time)
            } else {
                #expect(actions == [.markFailed(reason: "exited with status 3")])
            }
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(lifecycle.status.state == "failed")
        #expect(lifecycle.status.message.contains("stays down until the next reload"))
        #expect(lifecycle.start() == [], "a failed plugin does not start again by itself")
        #expect(lifecycle.timerFired(.restart) == [])
        lifecycle.reset()
        #expect(lifecycle.status.state == "stopped")
        #expect(lifecycle.start() == [.spawn], "after a reload it may start again")
    }

    @Test func delaysAreCappedAtSixtySeconds() {
        #expect((1...9).map { policy.restartDelay(afterFailures: $0) }
            == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
    }

    /// Failures more than a minute apart never add up to five.
    @Test func spreadOutFailuresDoNotMarkFailed() {
        var lifecycle = PluginLifecycle(policy: policy)
        var time = 0.0
        running(&lifecycle, at: time)
        for _ in 0..<10 {
            time += 20
            let actions = lifecycle.exited("exited with status 1", now: at(time))
            guard case .announceRestart(let delay, _)? = actions.first else {
                Issue.record("expected a restart, got \(actions)")
                return
            }
            // Ran 20 s each time: not stable, so delays grow, but only 3-4 failures fall in any minute.
            time += Double(delay.components.seconds)
            running(&lifecycle, at: time)
        }
        #expect(lifecycle.isReady)
    }

    /// A plugin that ran a good while before failing starts its delays over.
    @Test func stableRunResetsTheDelay() {
        var lifecycle = PluginLifecycle(policy: policy)
        running(&lifecycle, at: 0)
        _ = lifecycle.exited("exited with status 1", now: at(1))
        running(&lifecycle, at: 2)
        #expect(lifecycle.exited("exited with status 1", now: at(3)).first == .announceRestart(after: .seconds(2), reason: "exited with status 1"))
        running(&lifecycle, at: 5)
        #expect(lifecycle.exited("exited with status 1", now: at(200)).first == .announceRestart(after: .seconds(1), reason: "exited with status 1"))
    }

    @Test func readyTimeoutTerminatesAndCountsAsAFailure() {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        _ = lifecycle.spawned()
        #expect(lifecycle.timerFired(.ready) == [.signalTerminate, .armTimer(.kill, after: .seconds(1))])
        #expect(lifecycle.status == ("restarting", "it did not say ready within 5 s"))
        #expect(lifecycle.readyReceived(now: at(5)) == [], "a late ready does not revive it")
        #expect(lifecycle.exited("was ended by signal 15", now: at(5.1))
            == [.cancelTimer(.kill), .announceRestart(after: .seconds(1), reason: "did not say ready within 5 s"), .armTimer(.restart, after: .seconds(1))],
                "the failure is reported with its cause, not the signal that ended it")
    }

    @Test func brokenPipeTerminates() {
        var lifecycle = PluginLifecycle(policy: policy)
        running(&lifecycle, at: 0)
        #expect(lifecycle.broke("closed its input") == [.signalTerminate, .armTimer(.kill, after: .seconds(1))])
        #expect(lifecycle.broke("closed its output") == [], "once is enough")
        #expect(lifecycle.hasProcess, "waiting for the exit")
        #expect(lifecycle.exited("exited with status 0", now: at(1)) == [.cancelTimer(.kill), .announceRestart(after: .seconds(1), reason: "closed its input"), .armTimer(.restart, after: .seconds(1))])
        #expect(!lifecycle.hasProcess)
    }

    @Test func spawnFailureIsAFailure() {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        #expect(lifecycle.spawnFailed("No such file or directory", now: at(0))
            == [.announceRestart(after: .seconds(1), reason: "could not be started: No such file or directory"), .armTimer(.restart, after: .seconds(1))])
        #expect(lifecycle.timerFired(.restart) == [.spawn])
    }

    @Test(arguments: ["idle", "starting", "running", "terminating", "restarting", "failed"])
    func stopFromEveryState(_ from: String) {
        var lifecycle = PluginLifecycle(policy: policy)
        switch from {
        case "idle": break
        case "starting": _ = lifecycle.start()
        case "running": running(&lifecycle, at: 0)
        case "terminating":
            running(&lifecycle, at: 0)
            _ = lifecycle.broke("closed its output")
        case "restarting":
            running(&lifecycle, at: 0)
            _ = lifecycle.exited("exited with status 1", now: at(1))
        default:
            running(&lifecycle, at: 0)
            for second in 1...5 {
                _ = lifecycle.exited("exited with status 1", now: at(Double(second)))
                if second < 5 { running(&lifecycle, at: Double(second)) }
            }
            #expect(lifecycle.status.state == "failed")
        }
        let actions = lifecycle.stop()
        switch from {
        case "idle", "failed": #expect(actions == [.stopped])
        case "starting": #expect(actions == [.sendShutdown, .armTimer(.terminate, after: .seconds(2))])
        case "running": #expect(actions == [.sendShutdown, .armTimer(.terminate, after: .seconds(2))])
        case "terminating": #expect(actions == [])
        default: #expect(actions == [.cancelTimer(.restart), .stopped])
        }
        if lifecycle.hasProcess {
            #expect(lifecycle.pressDisposition == .refuse("is being stopped"))
            let armed = PluginTimer.processTimers.filter { lifecycle.armed.contains($0) }
            #expect(lifecycle.exited("exited with status 0", now: at(9)) == armed.map { .cancelTimer($0) } + [.stopped])
        }
        #expect(lifecycle.armed.isEmpty, "no timer outlives the plugin")
        #expect(lifecycle.stop() == [], "stopping twice does nothing more")
        #expect(lifecycle.start() == [], "a stopped plugin does not start again")
    }
}
