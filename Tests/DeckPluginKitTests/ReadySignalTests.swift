import DeckPluginKit
import Foundation
import Testing

/// ``ReadySignal``: what `hello` waits on before the plugin says `ready`.
@Suite struct ReadySignalTests {
    @Test func aSetSignalIsNotWaitedFor() {
        let signal = ReadySignal()
        signal.set()
        signal.set()  // a second set does nothing
        let start = ContinuousClock.now
        signal.wait(upTo: .seconds(5))
        #expect(signal.isReady)
        #expect(ContinuousClock.now - start < .seconds(4), "set before: the wait returns at once")
    }

    @Test func anUnsetSignalIsWaitedForAtMostTheLimit() {
        let signal = ReadySignal()
        let start = ContinuousClock.now
        signal.wait(upTo: .milliseconds(50))
        #expect(!signal.isReady)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func aSetFromAnotherThreadEndsTheWait() {
        let signal = ReadySignal()
        let thread = Thread { signal.set() }
        thread.start()
        signal.wait(upTo: .seconds(30))
        #expect(signal.isReady, "woken by the set, long before the limit")
    }
}
