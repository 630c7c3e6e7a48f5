import Testing
@testable import DeckTransport

/// A connection's establish and close deadlines, driven directly: no loop, no clock.
@Suite struct ConnectionDeadlinesTests {
    @Test func theHandshakeStopsTheEstablishTimeout() {
        var deadlines = ConnectionDeadlines()
        #expect(deadlines.started(timeout: .seconds(5)) == .arm(.establish, after: .seconds(5)))
        #expect(!deadlines.isEstablished)
        #expect(deadlines.markEstablished() == .cancel(.establish))
        #expect(deadlines.isEstablished)
        #expect(deadlines.markEstablished() == nil, "nothing left to cancel")
        #expect(deadlines.establishFired() == false, "a fire after the cancel is stale")
    }

    @Test func noTimeoutArmsNothing() {
        var deadlines = ConnectionDeadlines()
        #expect(deadlines.started(timeout: nil) == nil)
        #expect(!deadlines.isArmed(.establish))
        #expect(deadlines.closed() == [])
    }

    @Test func aConnectionThatNeverEstablishesTimesOut() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.started(timeout: .seconds(5))
        #expect(deadlines.establishFired() == true)
        #expect(deadlines.establishFired() == false, "once")
    }

    /// An upgraded connection owes a new handshake (its `hello`), from now.
    @Test func aNewPhaseIsDueAgain() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.started(timeout: .seconds(5))
        _ = deadlines.markEstablished()
        #expect(deadlines.phaseBegan(timeout: .seconds(3)) == .arm(.establish, after: .seconds(3)))
        #expect(!deadlines.isEstablished)
        #expect(deadlines.establishFired() == true)
    }

    @Test func theCloseDeadlineIsArmedOnce() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.started(timeout: .seconds(5))
        #expect(deadlines.closeNotified() == .cancel(.establish))
        #expect(deadlines.closing(timeout: .seconds(2)) == .arm(.close, after: .seconds(2)))
        #expect(deadlines.closing(timeout: .seconds(2)) == nil, "a second close does not move the deadline")
        #expect(deadlines.closeFired() == true)
        #expect(deadlines.closeFired() == false)
    }

    @Test func theCloseCancelsWhatIsArmed() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.started(timeout: .seconds(5))
        _ = deadlines.closing(timeout: .seconds(2))
        #expect(deadlines.closed() == [.cancel(.establish), .cancel(.close)])
        #expect(deadlines.closed() == [])
        #expect(deadlines.establishFired() == false)
        #expect(deadlines.closeFired() == false)
    }
}
