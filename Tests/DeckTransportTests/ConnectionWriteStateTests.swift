import Testing
@testable import DeckTransport

/// How a connection's output reaches the kernel, driven directly: no socket.
@Suite struct ConnectionWriteStateTests {
    @Test func oneFlushPerTurn() {
        var state = ConnectionWriteState(limit: 100)
        #expect(state.framed(bytes: 10) == .scheduleFlush)
        #expect(state.framed(bytes: 20) == .none, "already on the loop's list")
        #expect(state.flushWanted() == .none)
        state.flushStarted()
        #expect(state.wrote(outputEmpty: true, bytes: 0, hasHeld: false) == .drained)
        #expect(state.framed(bytes: 5) == .scheduleFlush, "a new turn, a new flush")
    }

    /// Writable, a line of any size goes out this turn; the limit is the
    /// bound on what waits for a peer that does not read.
    @Test func theLimitHoldsOnlyWhileBlocked() {
        var state = ConnectionWriteState(limit: 100)
        #expect(state.framed(bytes: 1000) == .scheduleFlush)
        state.flushStarted()
        #expect(state.wrote(outputEmpty: false, bytes: 60, hasHeld: false) == .waitForWritable)
        #expect(state.isBlocked)
        #expect(state.framed(bytes: 100) == .none, "at the limit is within it; EPOLLOUT writes it")
        #expect(state.framed(bytes: 101) == .failOverLimit)
    }

    @Test func aWriteOverTheLimitFails() {
        var state = ConnectionWriteState(limit: 100)
        _ = state.framed(bytes: 500)
        state.flushStarted()
        #expect(state.wrote(outputEmpty: false, bytes: 101, hasHeld: true) == .failOverLimit)
    }

    @Test func heldLinesCountAgainstTheLimitAlways() {
        var state = ConnectionWriteState(limit: 100)
        #expect(state.held(bytes: 101) == .failOverLimit)
        #expect(state.held(bytes: 50) == .scheduleFlush)
        state.flushStarted()
        #expect(state.wrote(outputEmpty: false, bytes: 50, hasHeld: true) == .waitForWritable)
        #expect(state.held(bytes: 80) == .none, "a peer that does not read gets it with EPOLLOUT")
    }

    @Test func heldLinesGoOutOnceTheOutputBeforeThemIsWritten() {
        var state = ConnectionWriteState(limit: 100)
        _ = state.framed(bytes: 10)
        state.flushStarted()
        #expect(state.wrote(outputEmpty: false, bytes: 30, hasHeld: true) == .waitForWritable)
        #expect(state.wrote(outputEmpty: true, bytes: 20, hasHeld: true) == .releaseHeld)
        #expect(!state.isBlocked, "the kernel took everything: writable again")
        #expect(state.framed(bytes: 20) == .scheduleFlush, "the released lines are flushed")
    }

    /// A close that flushes while blocked asks for a flush; it stays blocked
    /// (EPOLLOUT still polled) until a write empties the queue.
    @Test func aFlushWantedWhileBlocked() {
        var state = ConnectionWriteState(limit: 100)
        _ = state.framed(bytes: 10)
        state.flushStarted()
        _ = state.wrote(outputEmpty: false, bytes: 10, hasHeld: false)
        #expect(state.flushWanted() == .scheduleFlush)
        #expect(state.isBlocked)
        #expect(state.flushWanted() == .none)
        state.flushStarted()
        #expect(state.isBlocked)
        #expect(state.flushWanted() == .scheduleFlush)
    }
}
