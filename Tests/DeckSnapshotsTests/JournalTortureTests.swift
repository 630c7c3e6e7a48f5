import DeckModel
import DeckSnapshots
import Foundation
import Testing

@Suite("kill -9 while appending to the journal")
struct JournalTortureTests {
    /// Kills in make test; `DECK_JOURNAL_KILLS=300` for the full run (docs/snapshots.md).
    static let rounds = ProcessInfo.processInfo.environment["DECK_JOURNAL_KILLS"].flatMap(Int.init) ?? 40

    @Test("every generation reported before SIGKILL reads back intact, in order, none doubled, numbering goes on")
    func killNine() throws {
        let sandbox = try Sandbox("journal-torture")
        let reported = try killNineRounds(mode: "loop-journal", sandbox: sandbox, seed: 0x70A7_11ED, rounds: Self.rounds)
        try #require(reported.count >= Self.rounds / 2, "too few writes to mean anything: \(reported.count)")

        let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        let newest = try store.newest(profile: "default")
        // A kill while a segment is started leaves no header-less segment to call damage.
        #expect(!newest.notices.contains { $0.message.contains("was corrupt") }, "\(newest.notices)")
        let top = try #require(newest.snapshot?.info.generation)
        #expect(top >= reported.last ?? 0)
        // Every generation from 1 is there once, holds its own revision, and revisions only grow.
        let listed = try store.list(profile: "default").snapshots
        #expect(listed.map(\.generation) == Array((1...top).reversed()))
        #expect(listed.map(\.revision) == listed.map(\.generation))
        for generation in Set(reported).union([top]).sorted() {
            let snapshot = try store.read(profile: "default", generation: generation)
            #expect(snapshot.info.revision == generation)
            #expect(snapshot.layout.placedButtons.allSatisfy { $0.button.name.hasPrefix("r\(generation) p") },
                    "generation \(generation) holds the wrong layout")
        }
        #expect(try store.write(sampleEntry(top + 1)).written.map(\.generation) == [top + 1])
    }
}
