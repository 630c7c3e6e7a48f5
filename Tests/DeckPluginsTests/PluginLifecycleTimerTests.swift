@testable import DeckPlugins
import Testing

/// The supervisor's timers as PluginLifecycle decides them: which input arms
/// which timer, which cancels it, and what its fire does. No process, no clock.
@Suite struct PluginLifecycleTimerTests {
    let start = ContinuousClock.now
    let policy = PluginPolicy()

    private func at(_ seconds: Double) -> ContinuousClock.Instant {
        start + .milliseconds(Int64(seconds * 1000))
    }

    private func running(pollsExit: Bool = false) -> PluginLifecycle {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        _ = lifecycle.spawned(pollsExit: pollsExit)
        _ = lifecycle.readyReceived(now: at(0))
        return lifecycle
    }

    @Test(arguments: PluginTimer.allCases)
    func aTimerThatIsNotArmedDoesNothing(_ timer: PluginTimer) {
        var lifecycle = running()
        #expect(lifecycle.armed.isEmpty, "ready cancelled the ready timer")
        #expect(lifecycle.timerFired(timer) == [])
        #expect(lifecycle.isReady)
    }

    @Test func aReadyInTimeMakesTheDeadlineStale() {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        #expect(lifecycle.spawned() == [.sendHello, .armTimer(.ready, after: policy.readyTimeout)])
        #expect(lifecycle.armed == [.ready])
        #expect(lifecycle.readyReceived(now: at(1)) == [.cancelTimer(.ready), .becameReady])
        #expect(lifecycle.timerFired(.ready) == [], "a fire that raced the cancel changes nothing")
        #expect(lifecycle.isReady)
    }

    /// `shutdown`, SIGTERM after the shutdown grace, SIGKILL after the kill grace.
    @Test func shutdownEscalates() {
        var lifecycle = running()
        #expect(lifecycle.stop() == [.sendShutdown, .armTimer(.terminate, after: .seconds(2))])
        #expect(lifecycle.timerFired(.terminate) == [.signalTerminate, .armTimer(.kill, after: .seconds(1))])
        #expect(lifecycle.timerFired(.kill) == [.kill])
        #expect(lifecycle.exited("was killed by signal 9", now: at(4)) == [.stopped])
        #expect(lifecycle.armed.isEmpty)
    }

    /// The host's stop must fit its own deadline: its graces replace the policy's.
    @Test func aStopWithShorterGracesUsesThem() {
        var lifecycle = running()
        #expect(lifecycle.stop(grace: .milliseconds(300), killGrace: .milliseconds(200))
            == [.sendShutdown, .armTimer(.terminate, after: .milliseconds(300))])
        #expect(lifecycle.timerFired(.terminate) == [.signalTerminate, .armTimer(.kill, after: .milliseconds(200))])
    }

    @Test func anExitDuringTheShutdownGraceCancelsIt() {
        var lifecycle = running()
        _ = lifecycle.stop()
        #expect(lifecycle.exited("exited with status 0", now: at(1)) == [.cancelTimer(.terminate), .stopped])
        #expect(lifecycle.timerFired(.terminate) == [])
    }

    /// A broken process is sent SIGTERM once: a later stop or a second break
    /// does not signal it again nor arm a second kill timer.
    @Test func aBrokenProcessIsTerminatedOnce() {
        var lifecycle = running()
        #expect(lifecycle.broke("closed its input") == [.signalTerminate, .armTimer(.kill, after: .seconds(1))])
        #expect(lifecycle.stop() == [])
        #expect(lifecycle.broke("closed its output") == [])
        #expect(lifecycle.armed == [.kill])
        #expect(lifecycle.exited("was ended by signal 15", now: at(1)) == [.cancelTimer(.kill), .stopped])
    }

    @Test func aClosedPipeWaitsForTheExitThenTerminates() {
        var lifecycle = running()
        #expect(lifecycle.pipeEnded("closed its output") == [.armTimer(.brokenPipe, after: policy.closedPipeGrace)])
        #expect(lifecycle.pipeEnded("closed its input") == [], "one grace, for the first pipe")
        #expect(lifecycle.isReady, "the grace decides nothing yet")
        #expect(lifecycle.timerFired(.brokenPipe) == [.signalTerminate, .armTimer(.kill, after: .seconds(1))])
        #expect(lifecycle.status == ("restarting", "it closed its output"))
    }

    /// The exit within the grace names the failure, and the grace is cancelled.
    @Test func anExitWithinThePipeGraceIsTheReason() {
        var lifecycle = running()
        _ = lifecycle.pipeEnded("closed its output")
        #expect(lifecycle.exited("exited with status 4", now: at(1))
            == [.cancelTimer(.brokenPipe), .announceRestart(after: .seconds(1), reason: "exited with status 4"), .armTimer(.restart, after: .seconds(1))])
        #expect(lifecycle.timerFired(.brokenPipe) == [])
        #expect(lifecycle.status == ("restarting", "it exited with status 4"))
    }

    @Test func aReadyTimeoutDuringThePipeGraceCancelsTheGrace() {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        _ = lifecycle.spawned()
        _ = lifecycle.pipeEnded("closed its output")
        #expect(lifecycle.timerFired(.ready) == [.cancelTimer(.brokenPipe), .signalTerminate, .armTimer(.kill, after: .seconds(1))])
        #expect(lifecycle.status == ("restarting", "it did not say ready within 5 s"))
    }

    @Test(arguments: ["idle", "restarting", "stopped"])
    func aPipeWithoutAProcessArmsNothing(_ from: String) {
        var lifecycle = PluginLifecycle(policy: policy)
        switch from {
        case "restarting":
            lifecycle = running()
            _ = lifecycle.exited("exited with status 1", now: at(1))
        case "stopped":
            _ = lifecycle.stop()
        default: break
        }
        #expect(lifecycle.pipeEnded("closed its output") == [])
        #expect(!lifecycle.armed.contains(.brokenPipe))
    }

    /// Without a pidfd the exit is looked for on a timer, armed again each time
    /// until the exit is found, which cancels it with the other process timers.
    @Test func withoutAPidfdTheExitIsPolled() {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        #expect(lifecycle.spawned(pollsExit: true)
            == [.sendHello, .armTimer(.ready, after: .seconds(5)), .armTimer(.exitPoll, after: .milliseconds(100))])
        #expect(lifecycle.timerFired(.exitPoll) == [.armTimer(.exitPoll, after: .milliseconds(100)), .checkExit])
        #expect(lifecycle.exited("exited with status 2", now: at(0.2))
            == [.cancelTimer(.ready), .cancelTimer(.exitPoll), .announceRestart(after: .seconds(1), reason: "exited with status 2"), .armTimer(.restart, after: .seconds(1))])
        #expect(lifecycle.armed == [.restart])
    }

    @Test func theRestartTimerStartsTheProcessAgain() {
        var lifecycle = running(pollsExit: true)
        _ = lifecycle.exited("exited with status 1", now: at(1))
        #expect(lifecycle.timerFired(.restart) == [.spawn])
        #expect(lifecycle.spawned(pollsExit: true).contains(.armTimer(.exitPoll, after: .milliseconds(100))))
        #expect(lifecycle.armed == [.ready, .exitPoll])
    }

    @Test func aFailedSpawnArmsOnlyTheRestart() {
        var lifecycle = PluginLifecycle(policy: policy)
        _ = lifecycle.start()
        _ = lifecycle.spawnFailed("No such file or directory", now: at(0))
        #expect(lifecycle.armed == [.restart])
        #expect(lifecycle.stop() == [.cancelTimer(.restart), .stopped])
        #expect(lifecycle.armed.isEmpty)
    }
}
