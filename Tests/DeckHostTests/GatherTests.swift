@testable import DeckHost
@testable import DeckTransport
import Testing

@Suite("Gathering the edits of devices about to send into one batch")
struct GatherTests {
    typealias Pipeline = CommitPipeline<String, Int, String>

    func batches(_ actions: [Pipeline.Action]) -> [[Int]] {
        actions.compactMap { if case .write(let batch) = $0 { batch } else { nil } }
    }

    @Test func aHeldPipelineQueuesWritesAndReleasesThemAsOneBatch() {
        var pipeline = Pipeline()
        #expect(batches(pipeline.submit("a1", write: 1)) == [[1]])
        #expect(pipeline.submit("b1", write: 2).isEmpty)
        pipeline.hold()
        let finished = pipeline.batchFinished(receipts: ["g1"], failure: nil)
        #expect(batches(finished).isEmpty)              // b1 waits instead of going alone
        #expect(pipeline.isHolding && pipeline.hasQueuedWrites)
        #expect(pipeline.submit("a2", write: 3).isEmpty)
        #expect(batches(pipeline.release()) == [[2, 3]])
        #expect(!pipeline.isHolding && !pipeline.hasQueuedWrites)
        #expect(pipeline.release().isEmpty)              // a second release changes nothing
    }

    @Test func releasingWhileABatchIsWritingWaitsForIt() {
        var pipeline = Pipeline()
        _ = pipeline.submit("a1", write: 1)
        pipeline.hold()
        _ = pipeline.submit("b1", write: 2)
        #expect(pipeline.release().isEmpty)              // the writer is busy with [1]
        #expect(batches(pipeline.batchFinished(receipts: ["g1"], failure: nil)) == [[2]])
    }

    @Test func theDevicesOfABatchAreAwaitedUntilEachSendsOrTheWindowPasses() {
        var gather = BatchGather(window: .milliseconds(2))
        let a = ConnectionID(rawValue: 1), b = ConnectionID(rawValue: 2), c = ConnectionID(rawValue: 3)
        let start = ContinuousClock.now
        gather.queuedWrite(from: a)
        gather.queuedWrite(from: b)
        gather.queuedWrite(from: nil)                    // a reload: nobody to wait for
        gather.batchStarted(count: 3)
        let holdsNext = gather.batchFinished(now: start)
        #expect(holdsNext)
        #expect(gather.awaited == [a, b])
        let overAfterOther = gather.heard(from: c, now: start)      // not awaited: the wait goes on
        #expect(!overAfterOther)
        let overAfterA = gather.heard(from: a, now: start + .microseconds(100))
        #expect(!overAfterA)
        let overAfterB = gather.heard(from: b, now: start + .microseconds(200))  // the last one awaited
        #expect(overAfterB)
        gather.ended()
        let holdsWithNothingWritten = gather.batchFinished(now: start)       // nothing was written since: nobody awaited
        #expect(!holdsWithNothingWritten)
    }

    @Test func aLoneDeviceIsNeverDelayedAndLateEditsFindNoWait() {
        var gather = BatchGather(window: .milliseconds(2))
        let a = ConnectionID(rawValue: 1), b = ConnectionID(rawValue: 2)
        let start = ContinuousClock.now
        gather.queuedWrite(from: a)
        gather.batchStarted(count: 1)
        let holdsForLone = gather.batchFinished(now: start)
        #expect(holdsForLone)
        let overByOwnEdit = gather.heard(from: a, now: start + .seconds(5))   // its own next edit ends the wait at once
        #expect(overByOwnEdit)
        gather.queuedWrite(from: a)
        gather.batchStarted(count: 1)
        let holdsAgain = gather.batchFinished(now: start)
        #expect(holdsAgain)
        let overAfterWindow = gather.heard(from: b, now: start + .milliseconds(3))  // another device, after the window: no wait
        #expect(overAfterWindow)
    }

    @Test func aRollbackForgetsTheQueuedWrites() {
        var gather = BatchGather()
        let a = ConnectionID(rawValue: 1)
        gather.queuedWrite(from: a)
        gather.queueDropped()
        gather.batchStarted(count: 1)
        let holdsAfterRollback = gather.batchFinished(now: .now)
        #expect(!holdsAfterRollback)
    }
}
