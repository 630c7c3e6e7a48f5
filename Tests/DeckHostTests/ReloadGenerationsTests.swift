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

    @Test func aSaveSeenSupersedesAWatcherScanBeforeItsOwnScanIsAskedFor() {
        var reloads = ReloadGenerations()
        let huge = reloads.requested(answered: false)
        let asked = reloads.requested(answered: true)
        // The first events of a newer save, before the watcher's settle time.
        reloads.saveSeen()
        #expect(huge.superseded && reloads.finished(huge) == .discard)
        #expect(!asked.superseded && reloads.finished(asked) == .apply)
        // The save's own scan, asked for once it settles, goes live.
        let good = reloads.requested(answered: false)
        #expect(!good.superseded && reloads.finished(good) == .apply)
    }
}
