import Testing
@testable import DeckHost

/// Which finished scan of the layouts folder may go live.
@Suite("Reload generations")
struct ReloadGenerationsTests {
    @Test func aWatcherScanIsSupersededByAnyNewerReload() {
        var reloads = ReloadGenerations()
        let huge = reloads.requested(answered: false)
        #expect(!huge.superseded)
        #expect(reloads.finished(huge) == .apply)
        let good = reloads.requested(answered: false)
        // The scan in progress sees it on the disk thread, and its result is dropped.
        #expect(huge.superseded)
        #expect(reloads.finished(huge) == .discard)
        #expect(!good.superseded)
        #expect(reloads.finished(good) == .apply)
        let asked = reloads.requested(answered: true)
        #expect(good.superseded && reloads.finished(good) == .discard)
        #expect(reloads.finished(asked) == .apply)
    }

    @Test func aScanSomeoneWaitsForIsNeverSuperseded() {
        var reloads = ReloadGenerations()
        let asked = reloads.requested(answered: true)
        _ = reloads.requested(answered: false)
        _ = reloads.requested(answered: true)
        #expect(!asked.superseded)
        #expect(reloads.finished(asked) == .apply)
    }
}
