@testable import KeysPlugin
import Testing

/// When the X11 back end reads the keymap: once, then again only after the
/// server said something changed; every time when it cannot hear of changes.
@Suite struct KeymapFreshnessTests {
    @Test func theFirstCommandReadsAndLaterOnesUseWhatWasRead() {
        var freshness = KeymapFreshness(watched: true)
        #expect(freshness.commandStarts() == .read)
        #expect(freshness.commandStarts() == .useCached)
        #expect(freshness.commandStarts() == .useCached)
    }

    @Test func aChangeMakesTheNextCommandReadOnce() {
        var freshness = KeymapFreshness(watched: true)
        _ = freshness.commandStarts()
        freshness.changeSeen()
        freshness.changeSeen()
        #expect(freshness.commandStarts() == .read)
        #expect(freshness.commandStarts() == .useCached)
    }

    @Test func aChangeBeforeTheFirstReadStillReadsOnce() {
        var freshness = KeymapFreshness(watched: true)
        freshness.changeSeen()
        #expect(freshness.commandStarts() == .read)
        #expect(freshness.commandStarts() == .useCached)
    }

    @Test func anUnwatchedConnectionReadsBeforeEveryCommand() {
        var freshness = KeymapFreshness(watched: false)
        for _ in 0..<3 { #expect(freshness.commandStarts() == .read) }
        freshness.changeSeen()
        #expect(freshness.commandStarts() == .read)
    }
}
