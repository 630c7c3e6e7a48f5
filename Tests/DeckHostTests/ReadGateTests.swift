import Testing
@testable import DeckHost

/// Who holds a connection's reading, and why (issue 23: four loose booleans before).
@Suite("ReadGate: who holds a connection's reading")
struct ReadGateTests {
    @Test(arguments: ReadGate.Reason.allCases)
    func theFirstHoldPausesAndItsReleaseResumes(_ reason: ReadGate.Reason) {
        var gate = ReadGate()
        #expect(gate.hold(reason) == .pause && gate.isPaused && gate.isHeld(reason))
        #expect(gate.release(reason) == .resume && !gate.isPaused)
    }

    /// The throttle ending must not resume a client whose request still waits for the disk.
    @Test func releasingOneReasonKeepsAnotherHolding() {
        var gate = ReadGate()
        #expect(gate.hold(.disk) == .pause)
        #expect(gate.hold(.throttled) == .none)
        #expect(gate.release(.throttled) == .none && gate.isPaused)
        #expect(gate.release(.disk) == .resume)
    }

    @Test func diskHoldsCountOnePerJob() {
        var gate = ReadGate()
        _ = gate.hold(.disk)
        _ = gate.hold(.disk)
        #expect(gate.release(.disk) == .none && gate.isHeld(.disk))
        #expect(gate.release(.disk) == .resume)
    }

    @Test func otherHoldsAreOnOrOff() {
        var gate = ReadGate()
        _ = gate.hold(.throttled)
        _ = gate.hold(.throttled)
        #expect(gate.release(.throttled) == .resume)
    }

    @Test func releasingWhatWasNotHeldDoesNothing() {
        var gate = ReadGate()
        #expect(gate.release(.revoked) == .none && !gate.isPaused)
        _ = gate.hold(.stopping)
        #expect(gate.release(.disk) == .none && gate.isPaused)
    }

    /// A stop holds every connection for good: a disk job that ends during it does not resume reading.
    @Test func aDiskJobEndingWhileStoppingDoesNotResume() {
        var gate = ReadGate()
        _ = gate.hold(.disk)
        _ = gate.hold(.stopping)
        #expect(gate.release(.disk) == .none && gate.isHeld(.stopping))
    }
}
