import Synchronization
import Testing
@testable import DeckTransport

/// ``EventLoop/afterFlush(_:)``: work that waits for the turn's deferred
/// work and output, and still runs before the loop waits again.
@Suite("event loop: after the flush")
struct AfterFlushTests {
    @Test func afterFlushRunsBehindTheTurnsLocalWorkInOrderAndBeforeTheNextWait() throws {
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        let order = try loop.sync { LoopBound([String](), loop: loop) }
        let wakeUps = Mutex<(UInt64, UInt64)>((0, 0))
        try loop.sync {
            let before = loop.state.wakeUps
            loop.afterFlush {
                order.value.append("after 1")
                // Queued by after-flush work: still this turn, behind it.
                loop.afterFlush { order.value.append("after 3") }
                loop.state.localTasks.append { order.value.append("local 2") }
            }
            loop.afterFlush { order.value.append("after 2") }
            loop.state.localTasks.append { order.value.append("local 1") }
            wakeUps.withLock { $0.0 = before }
            loop.afterFlush { wakeUps.withLock { $0.1 = loop.state.wakeUps } }
        }
        #expect(try loop.sync { order.value } == ["local 1", "after 1", "after 2", "local 2", "after 3"])
        let (before, during) = wakeUps.withLock { $0 }
        #expect(before == during)  // no epoll_wait between the turn and its after-flush work
    }

    @Test func afterFlushWorkStillRunsWhenTheLoopStops() throws {
        let loop = try EventLoop.spawn()
        let ran = Atomic<Bool>(false)
        try loop.sync {
            loop.afterFlush { ran.store(true, ordering: .relaxed) }
            loop.stop()
        }
        loop.waitUntilStopped()
        let didRun = ran.load(ordering: .relaxed)
        #expect(didRun)
    }
}
