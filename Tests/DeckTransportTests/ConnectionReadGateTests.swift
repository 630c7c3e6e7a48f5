import Testing
@testable import DeckTransport

/// Who holds a connection's reading back, driven directly: no socket, no loop.
@Suite struct ConnectionReadGateTests {
    @Test func pauseAndResume() {
        var gate = ConnectionReadGate()
        #expect(gate.isFlowing)
        #expect(gate.pause() == .updateInterest)
        #expect(gate.pause() == .none, "pausing twice changes nothing")
        #expect(gate.isPaused && !gate.isFlowing)
        #expect(gate.resume(receiving: true) == .readAgain)
        #expect(gate.resume(receiving: true) == .none, "resuming what is not paused does nothing")
        #expect(gate.isFlowing)
    }

    /// After the input ended nothing is read again, but the pause is still released.
    @Test func aResumeAfterTheInputEndedReadsNothing() {
        var gate = ConnectionReadGate()
        _ = gate.pause()
        #expect(gate.inputEnded(.peerClosed) == .updateInterest)
        #expect(gate.resume(receiving: false) == .none)
        #expect(!gate.isPaused && gate.inputEnd == .peerClosed)
    }

    @Test func outputAboveTheHighWaterMarkHoldsReadingUntilHalfOfIt() {
        var gate = ConnectionReadGate()
        #expect(gate.outputGrew(to: 1000, highWater: 1000, receiving: true) == .none, "at the mark is not above it")
        #expect(gate.outputGrew(to: 1001, highWater: 1000, receiving: true) == .updateInterest)
        #expect(gate.outputGrew(to: 5000, highWater: 1000, receiving: true) == .none, "held once")
        #expect(gate.isHeldByOutput && !gate.isFlowing)
        #expect(gate.outputShrank(to: 501, highWater: 1000, receiving: true) == .none)
        #expect(gate.isHeldByOutput)
        #expect(gate.outputShrank(to: 500, highWater: 1000, receiving: true) == .readAgain)
        #expect(gate.isFlowing)
    }

    @Test(arguments: [(1 as Int?, false), (nil, true)])
    func noHoldWithoutAMarkOrOnceNotReceiving(_ highWater: Int?, _ receiving: Bool) {
        var gate = ConnectionReadGate()
        #expect(gate.outputGrew(to: 1 << 30, highWater: highWater, receiving: receiving) == .none)
        #expect(gate.isFlowing)
    }

    /// Both holds must go before reading goes on, in either order.
    @Test(arguments: [true, false])
    func bothReasonsMustGo(_ pauseGoesFirst: Bool) {
        var gate = ConnectionReadGate()
        _ = gate.pause()
        _ = gate.outputGrew(to: 10, highWater: 4, receiving: true)
        if pauseGoesFirst {
            #expect(gate.resume(receiving: true) == .none)
            #expect(gate.isHeldByOutput && !gate.isPaused)
            #expect(gate.outputShrank(to: 0, highWater: 4, receiving: true) == .readAgain)
        } else {
            #expect(gate.outputShrank(to: 0, highWater: 4, receiving: true) == .none)
            #expect(gate.isPaused && !gate.isHeldByOutput)
            #expect(gate.resume(receiving: true) == .readAgain)
        }
        #expect(gate.isFlowing)
    }

    @Test func aTurnHandsOverItsShareThenWaits() {
        var gate = ConnectionReadGate()
        gate.turnStarted()
        for line in 1..<ConnectionReadGate.linesPerTurn {
            #expect(gate.handedOver(receiving: true) == true, "line \(line) may be followed")
        }
        #expect(gate.handedOver(receiving: true) == false, "the share is spent")
        #expect(gate.waitsForNextTurn(receiving: true, framingHoldsLines: true))
        #expect(!gate.waitsForNextTurn(receiving: true, framingHoldsLines: false), "nothing kept, nothing to wait with")
        gate.turnStarted()
        #expect(!gate.waitsForNextTurn(receiving: true, framingHoldsLines: true))
    }

    /// A handler that pauses (or closes) mid-turn stops the lines at once;
    /// a paused connection never queues itself for the next turn.
    @Test func aPauseStopsTheTurn() {
        var gate = ConnectionReadGate()
        gate.turnStarted()
        #expect(gate.handedOver(receiving: true) == true)
        _ = gate.pause()
        #expect(gate.handedOver(receiving: true) == false)
        #expect(gate.handedOver(receiving: false) == false)
        for _ in 0..<ConnectionReadGate.linesPerTurn { _ = gate.handedOver(receiving: true) }
        #expect(!gate.waitsForNextTurn(receiving: true, framingHoldsLines: true))
    }

    @Test func theFirstReasonTheInputEndedStays() {
        var gate = ConnectionReadGate()
        #expect(gate.inputEnd == nil)
        _ = gate.inputEnded(.lineTooLong(limit: 8))
        _ = gate.inputEnded(.peerClosed)
        #expect(gate.inputEnd == .lineTooLong(limit: 8))
    }
}
