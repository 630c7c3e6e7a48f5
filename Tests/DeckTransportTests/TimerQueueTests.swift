import Testing
@testable import DeckTransport

@Suite("timer queue")
struct TimerQueueTests {
    @Test func firesInDeadlineOrderWithTiesInSchedulingOrder() {
        let queue = TimerQueue()
        defer { queue.removeAll() }  // as the loop does when it stops: a pending timer holds its queue
        var fired: [String] = []
        _ = queue.schedule(deadline: 30) { fired.append("c") }
        _ = queue.schedule(deadline: 10) { fired.append("a") }
        _ = queue.schedule(deadline: 20) { fired.append("b1") }
        _ = queue.schedule(deadline: 20) { fired.append("b2") }
        _ = queue.schedule(deadline: 40) { fired.append("late") }
        #expect(queue.nextDeadline() == 10)
        queue.fireDue(now: 30)
        #expect(fired == ["a", "b1", "b2", "c"])
        #expect(queue.nextDeadline() == 40)
        #expect(queue.pendingCount == 1)
    }

    @Test func cancelledTimersNeverFireNorSetTheWait() {
        let queue = TimerQueue()
        defer { queue.removeAll() }  // as the loop does when it stops: a pending timer holds its queue
        var fired: [Int] = []
        let first = queue.schedule(deadline: 5) { fired.append(5) }
        _ = queue.schedule(deadline: 50) { fired.append(50) }
        first.cancel()
        #expect(!first.isPending)
        // The tombstone on top is dropped: the next wait is for 50, not 5.
        #expect(queue.nextDeadline() == 50)
        queue.fireDue(now: 100)
        #expect(fired == [50])
        #expect(queue.nextDeadline() == nil)
    }

    @Test func compactionKeepsOrder() {
        let queue = TimerQueue()
        defer { queue.removeAll() }  // as the loop does when it stops: a pending timer holds its queue
        var fired: [UInt64] = []
        var timers: [LoopTimer] = []
        for deadline in (1...300).reversed() {
            let value = UInt64(deadline)
            timers.append(queue.schedule(deadline: value) { fired.append(value) })
        }
        for timer in timers where timer.deadline % 3 != 0 { timer.cancel() }
        #expect(queue.pendingCount == 100)
        queue.fireDue(now: 1000)
        #expect(fired == (1...100).map { UInt64($0 * 3) })
    }

    @Test func timersScheduledWhileFiringWaitForTheirTurn() {
        let queue = TimerQueue()
        defer { queue.removeAll() }  // as the loop does when it stops: a pending timer holds its queue
        var fired: [String] = []
        _ = queue.schedule(deadline: 10) {
            fired.append("first")
            _ = queue.schedule(deadline: 200) { fired.append("second") }
        }
        queue.fireDue(now: 100)
        #expect(fired == ["first"])
        #expect(queue.nextDeadline() == 200)
    }

    @Test func waitIsRoundedUpNeverEarly() {
        #expect(Sys.millisecondsUntil(nil, now: 5) == -1)
        #expect(Sys.millisecondsUntil(5, now: 10) == 0)
        #expect(Sys.millisecondsUntil(1_000_001, now: 0) == 2)
        #expect(Sys.millisecondsUntil(1_000_000, now: 0) == 1)
    }
}
