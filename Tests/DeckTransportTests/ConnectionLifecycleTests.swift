import Testing
@testable import DeckTransport

@Suite("connection lifecycle state machine")
struct ConnectionLifecycleTests {
    typealias T = ConnectionLifecycle.Transition

    @Test func closeNowFromOpenNotifiesOnce() {
        var machine = ConnectionLifecycle()
        #expect(machine.close(.closedByHost, afterFlush: false, outputPending: true) == T(notify: .closedByHost, action: .closeNow))
        #expect(machine.isClosed)
        #expect(machine.close(.closedByHost, afterFlush: false, outputPending: false) == T(notify: nil, action: .none))
        #expect(machine.fail(.peerClosed) == T(notify: nil, action: .none))
    }

    @Test func closeAfterFlushWithOutputFlushesThenLingers() {
        var machine = ConnectionLifecycle()
        #expect(machine.close(.lineTooLong(limit: 5), afterFlush: true, outputPending: true)
            == T(notify: .lineTooLong(limit: 5), action: .flushThenClose))
        #expect(!machine.isOpen && machine.isClosing)
        #expect(machine.outputDrained() == T(notify: nil, action: .shutDownAndLinger))
        #expect(machine.isClosing)
        #expect(machine.peerFinished() == T(notify: nil, action: .closeNow))
        #expect(machine.isClosed)
    }

    @Test func closeAfterFlushWithoutOutputLingersAtOnce() {
        var machine = ConnectionLifecycle()
        #expect(machine.close(.closedByHost, afterFlush: true, outputPending: false)
            == T(notify: .closedByHost, action: .shutDownAndLinger))
        #expect(machine.fail(.closedByHost) == T(notify: nil, action: .closeNow))
    }

    @Test func aSecondCloseWithoutFlushCutsTheFlushShort() {
        var machine = ConnectionLifecycle()
        _ = machine.close(.closedByHost, afterFlush: true, outputPending: true)
        #expect(machine.close(.closedByHost, afterFlush: true, outputPending: true) == T(notify: nil, action: .none))
        #expect(machine.close(.closedByHost, afterFlush: false, outputPending: true) == T(notify: nil, action: .closeNow))
    }

    @Test func peerEOFLeavesTheConnectionOpenForRepliesUntilTheLayerAboveCloses() {
        var machine = ConnectionLifecycle()
        #expect(machine.peerFinished() == T(notify: nil, action: .none))
        #expect(machine.isOpen && !machine.isReceiving && machine.peerSentEOF)
        #expect(machine.peerFinished() == T(notify: nil, action: .none))
        // Replies queued: written, then closed without lingering (the peer left nothing unread).
        #expect(machine.close(.peerClosed, afterFlush: true, outputPending: true) == T(notify: .peerClosed, action: .flushThenClose))
        #expect(machine.outputDrained() == T(notify: nil, action: .closeNow))
    }

    @Test func peerEOFWithNothingLeftToSendClosesAtOnce() {
        var machine = ConnectionLifecycle()
        _ = machine.peerFinished()
        #expect(machine.close(.peerClosed, afterFlush: true, outputPending: false) == T(notify: .peerClosed, action: .closeNow))
    }

    @Test func aTooLongLineStopsReceivingAndStillLingersAfterTheLastReply() {
        var machine = ConnectionLifecycle()
        #expect(machine.stopReceiving() == T(notify: nil, action: .none))
        #expect(machine.isOpen && !machine.isReceiving && !machine.peerSentEOF)
        #expect(machine.close(.lineTooLong(limit: 5), afterFlush: true, outputPending: true)
            == T(notify: .lineTooLong(limit: 5), action: .flushThenClose))
        // The peer may still be sending the rest of its line: read and drop it, never reset.
        #expect(machine.outputDrained() == T(notify: nil, action: .shutDownAndLinger))
    }

    @Test func aFailureAfterTheInputEndedNotifiesOnce() {
        var machine = ConnectionLifecycle()
        _ = machine.peerFinished()
        #expect(machine.fail(.loopStopped) == T(notify: .loopStopped, action: .closeNow))
        #expect(machine.fail(.loopStopped) == T(notify: nil, action: .none))
    }

    @Test func failureClosesFromEveryState() {
        var open = ConnectionLifecycle()
        #expect(open.fail(.outputLimit(limit: 8)) == T(notify: .outputLimit(limit: 8), action: .closeNow))
        var flushing = ConnectionLifecycle()
        _ = flushing.close(.closedByHost, afterFlush: true, outputPending: true)
        #expect(flushing.fail(.socketError(errno: 104)) == T(notify: nil, action: .closeNow))
    }

    @Test func drainedOutputIsNothingWhileOpen() {
        var machine = ConnectionLifecycle()
        #expect(machine.outputDrained() == T(notify: nil, action: .none))
        #expect(machine.isOpen)
    }
}
