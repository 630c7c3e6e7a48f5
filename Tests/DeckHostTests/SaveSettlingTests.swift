@testable import DeckHost
import Testing

/// When the watcher's scan may come, driven with made-up instants.
@Suite("Settling of saves")
struct SaveSettlingTests {
    let start = ContinuousClock.now

    @Test func aScanComesOneSettleTimeAfterTheFirstOfSeveralChanges() {
        var settling = SaveSettling()
        #expect(settling.changed(at: start) == .startTimer)
        settling.saw(.closed, of: "default.yaml")
        #expect(settling.changed(at: start + .milliseconds(50)) == .nothing)
        #expect(settling.timerFired(at: start + .milliseconds(150)) == .scan)
        // The next change starts a new settle time.
        #expect(settling.changed(at: start + .seconds(1)) == .startTimer)
    }

    @Test func aFileStillBeingWrittenIsWaitedForUntilClosed() {
        var settling = SaveSettling()
        settling.saw(.closed, of: "default.yaml")
        #expect(settling.changed(at: start) == .startTimer)
        settling.saw(.written, of: "default.yaml")
        #expect(settling.timerFired(at: start + .milliseconds(150)) == .waitAgain(tell: ["default.yaml"]))
        // Said once per settle time.
        #expect(settling.timerFired(at: start + .milliseconds(300)) == .waitAgain(tell: nil))
        settling.saw(.closed, of: "default.yaml")
        #expect(settling.timerFired(at: start + .milliseconds(450)) == .scan)
    }

    @Test func aFileKeptOpenDelaysTheScanByAtMostTheLongestSettle() {
        var settling = SaveSettling()
        settling.saw(.written, of: "b.yaml")
        settling.saw(.written, of: "a.yaml")
        #expect(settling.changed(at: start) == .startTimer)
        #expect(settling.timerFired(at: start + .milliseconds(150)) == .waitAgain(tell: ["a.yaml", "b.yaml"]))
        #expect(settling.timerFired(at: start + SaveSettling.longest) == .scan)
        // Still open: the next change waits for it again, and says so again.
        #expect(settling.changed(at: start + .seconds(10)) == .startTimer)
        #expect(settling.timerFired(at: start + .seconds(10) + .milliseconds(150)) == .waitAgain(tell: ["a.yaml", "b.yaml"]))
    }

    @Test func lostEventsForgetTheOpenFiles() {
        var settling = SaveSettling()
        settling.saw(.written, of: "default.yaml")
        #expect(settling.changed(at: start) == .startTimer)
        settling.forgetOpenFiles()
        #expect(settling.timerFired(at: start + .milliseconds(150)) == .scan)
    }
}
