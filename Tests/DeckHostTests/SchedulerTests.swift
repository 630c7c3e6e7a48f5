import DeckModel
import Foundation
import DeckSnapshots
import Testing
@testable import DeckHost
@testable import DeckTransport

@Suite("CommitScheduler: pipeline, gather, timer and throttle together")
struct CommitSchedulerTests {
    typealias Scheduler = CommitScheduler<String>
    struct DiskFull: Error {}
    static let t0 = ContinuousClock.now

    static func entry(_ revision: Int) throws -> SnapshotEntry {
        LiveState(profile: "default", revision: revision, layout: try Fixture.layout(["A"]), source: nil).snapshot(reason: "setButton")
    }
    static func receipt(_ generation: Int) -> DeckSnapshots.SnapshotInfo {
        DeckSnapshots.SnapshotInfo(profile: "default", generation: generation, revision: generation,
                                   time: Date(timeIntervalSince1970: 0), reason: "setButton", source: nil, bytes: 1)
    }

    /// A readable summary of actions: `w1` a batch of one, `p:name`, `f:name`, `timer`, `rolledBack`, `pause#1`, `resume#1`.
    static func words(_ actions: [Scheduler.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .write(let batch): "w\(batch.count)"
            case .perform(let name, _): "p:\(name)"
            case .writeFailed: "writeFailed"
            case .fail(let name, _): "f:\(name)"
            case .rolledBack: "rolledBack"
            case .armTimer: "timer"
            case .pause(let id): "pause\(id)"
            case .resume(let ids): "resume" + ids.map(\.description).joined()
            }
        }
    }

    @Test func aBatchOfOneDeviceHoldsTheNextWritesUntilThatDeviceSendsAgain() throws {
        var scheduler = Scheduler(window: .seconds(1))
        let a = Fixture.id(1), b = Fixture.id(2)
        #expect(Self.words(scheduler.submit("a1", write: try Self.entry(1), editor: a, now: Self.t0)) == ["w1"])
        #expect(Self.words(scheduler.batchFinished(receipts: [Self.receipt(1)], failure: nil, now: Self.t0, stopping: false))
                == ["p:a1"])
        #expect(scheduler.isHolding && scheduler.awaited == [a])
        // b's edit is held (a is awaited) and a timer is armed for the window.
        #expect(Self.words(scheduler.submit("b1", write: try Self.entry(2), editor: b, now: Self.t0)) == ["timer"])
        #expect(Self.words(scheduler.heard(from: b, now: Self.t0)).isEmpty)
        // a's next edit ends the wait: both go as one batch.
        _ = scheduler.submit("a2", write: try Self.entry(3), editor: a, now: Self.t0)
        #expect(Self.words(scheduler.heard(from: a, now: Self.t0)) == ["w2"])
        #expect(!scheduler.isHolding)
    }

    @Test func aWriteNoDeviceAskedForHoldsNothing() throws {
        var scheduler = Scheduler(window: .seconds(1))
        _ = scheduler.submit("restore", write: try Self.entry(1), editor: nil, sender: Fixture.id(9), now: Self.t0)
        _ = scheduler.batchFinished(receipts: [Self.receipt(1)], failure: nil, now: Self.t0, stopping: false)
        #expect(!scheduler.isHolding)
        #expect(Self.words(scheduler.submit("edit", write: try Self.entry(2), editor: Fixture.id(1), now: Self.t0)) == ["w1"])
    }

    @Test func theTimerEndsTheHoldAndAStaleTimerDoesNothing() throws {
        var scheduler = Scheduler(window: .seconds(1))
        _ = scheduler.submit("a1", write: try Self.entry(1), editor: Fixture.id(1), now: Self.t0)
        _ = scheduler.batchFinished(receipts: [Self.receipt(1)], failure: nil, now: Self.t0, stopping: false)
        let armed = scheduler.submit("b1", write: try Self.entry(2), editor: Fixture.id(2), now: Self.t0)
        guard case .armTimer(let delay, let generation) = armed.first else { Issue.record("\(armed)"); return }
        #expect(delay == .seconds(1))
        #expect(Self.words(scheduler.timerFired(generation + 1, now: Self.t0 + .seconds(1))).isEmpty)
        #expect(Self.words(scheduler.timerFired(generation, now: Self.t0 + .seconds(1))) == ["w1"])
        #expect(Self.words(scheduler.timerFired(generation, now: Self.t0 + .seconds(2))).isEmpty)
    }

    @Test func whileStoppingNoBatchIsHeld() throws {
        var scheduler = Scheduler(window: .seconds(1))
        _ = scheduler.submit("a1", write: try Self.entry(1), editor: Fixture.id(1), now: Self.t0)
        _ = scheduler.batchFinished(receipts: [Self.receipt(1)], failure: nil, now: Self.t0, stopping: true)
        #expect(!scheduler.isHolding)
    }

    @Test func aFailedBatchSaysSoOnceFailsWhatWasBuiltOnItAndRollsBack() throws {
        var scheduler = Scheduler()
        _ = scheduler.submit("e1", write: try Self.entry(1), editor: Fixture.id(1), now: Self.t0)
        _ = scheduler.submit("pong", now: Self.t0)
        _ = scheduler.submit("e2", write: try Self.entry(2), editor: Fixture.id(2), now: Self.t0)
        let actions = scheduler.batchFinished(receipts: [], failure: DiskFull(), now: Self.t0, stopping: false)
        #expect(Self.words(actions) == ["writeFailed", "f:e1", "p:pong", "f:e2", "rolledBack"])
        #expect(scheduler.isEmpty)
    }

    @Test func sendersArePausedAboveTheHighLevelAndResumedBelowTheLowOne() throws {
        var scheduler = Scheduler(throttleHigh: 3, throttleLow: 2)
        let sender = Fixture.id(5)
        _ = scheduler.submit("e1", write: try Self.entry(1), editor: sender, sender: sender, now: Self.t0)
        _ = scheduler.submit("r1", sender: sender, now: Self.t0)
        #expect(Self.words(scheduler.submit("r2", sender: sender, now: Self.t0)) == ["pause#5"])
        #expect(Self.words(scheduler.submit("r3", sender: sender, now: Self.t0)).isEmpty)  // paused once
        #expect(scheduler.settled().isEmpty)
        _ = scheduler.batchFinished(receipts: [Self.receipt(1)], failure: nil, now: Self.t0, stopping: false)
        #expect(Self.words(scheduler.settled()) == ["resume#5"])
        #expect(scheduler.settled().isEmpty)
    }
}

@Suite("Shutdown: running, stopping, stopped, and the exit status")
struct ShutdownTests {
    @Test func aCleanStopExitsZeroOnceTheEditsAreOutAndThePluginsGone() {
        var shutdown = Shutdown()
        #expect(shutdown.begin() && !shutdown.begin())
        #expect(shutdown.isStopping && !shutdown.isStopped)
        let ready1 = shutdown.finishIfReady(pipelineEmpty: false, pluginsStopped: true)
        #expect(!ready1)
        let ready2 = shutdown.finishIfReady(pipelineEmpty: true, pluginsStopped: false)
        #expect(!ready2)
        let stops = shutdown.finishIfReady(pipelineEmpty: true, pluginsStopped: true)
        #expect(stops && shutdown.isStopped && shutdown.exitStatus == .success)
        #expect(shutdown.deadlinePassed(pipelineEmpty: false, pluginsStopped: false) == nil)
        let ready3 = shutdown.finishIfReady(pipelineEmpty: true, pluginsStopped: true)
        #expect(!ready3)
    }

    /// Issue 19: `exitStatus` was never assigned, so a stop that gave up on
    /// edits the disk had not finished still exited 0.
    @Test func aStopThatGivesUpOnEditsIsARuntimeFailure() {
        var shutdown = Shutdown()
        _ = shutdown.begin()
        #expect(shutdown.deadlinePassed(pipelineEmpty: false, pluginsStopped: true)
                == ["the disk did not finish the last edits in time; stopping without their replies"])
        #expect(shutdown.exitStatus == .failure)
    }

    @Test func pluginsKilledAtTheDeadlineStillMakeACleanStop() {
        var shutdown = Shutdown()
        _ = shutdown.begin()
        #expect(shutdown.deadlinePassed(pipelineEmpty: true, pluginsStopped: false)?.count == 1)
        #expect(shutdown.exitStatus == .success)
    }

    @Test func aLoopThatEndsWithoutAStopFailed() {
        #expect(Shutdown().exitStatus == .failure)
        var notBegun = Shutdown()
        let ready4 = notBegun.finishIfReady(pipelineEmpty: true, pluginsStopped: true)
        #expect(!ready4)
        #expect(notBegun.deadlinePassed(pipelineEmpty: true, pluginsStopped: true) == nil)
    }
}

@Suite("Notices: what status shows")
struct NoticesTests {
    @Test func startNoticesStayAndLaterOnesKeepTheNewestTwenty() {
        var notices = Notices(start: ["set aside"])
        for number in 0..<25 { notices.note("later \(number)") }
        #expect(notices.all.first == "set aside" && notices.all.count == 21 && notices.all.last == "later 24")
        #expect(notices.later.first == "later 5")
    }

    @Test func manyStartNoticesAreTheFirstNineteenAndACount() {
        let notices = Notices(start: (0..<30).map { "n\($0)" })
        #expect(notices.start.count == 20 && notices.start[18] == "n18")
        #expect(notices.start.last == "11 more notices at start-up; see the log")
    }
}
