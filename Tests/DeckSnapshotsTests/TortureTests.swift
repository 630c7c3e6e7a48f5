import DeckModel
import DeckSnapshots
import Foundation
import Testing

@Suite("kill -9 while writing")
struct TortureTests {
    /// What `deck-snapshot-torture loop` writes for `revision`: every button is
    /// named `r<revision> …` and there are 3 + revision % 5 pages before the empty one.
    func holdsRevision(_ snapshot: Snapshot) -> Bool {
        let revision = snapshot.info.revision
        return snapshot.info.generation == revision
            && snapshot.layout.pages.count == 3 + revision % 5 + 1
            && snapshot.layout.buttonCount > 0
            && snapshot.layout.placedButtons.allSatisfy { $0.button.name.hasPrefix("r\(revision) p") }
    }

    @Test("every generation reported before SIGKILL reads back intact, nothing is half-written, numbering goes on")
    func killNine() throws {
        let sandbox = try Sandbox("torture")
        let reported = try killNineRounds(mode: "loop", sandbox: sandbox, seed: 0xDEC4_5EED, rounds: 50) { round, generations in
            let names = sandbox.files()
            #expect(!names.contains { $0.hasSuffix(".corrupt") }, "round \(round)")
            let finals = Set(names.compactMap { $0.hasSuffix(".json.gz") ? Int($0.prefix(10)) : nil })
            #expect(Set(generations).isSubset(of: finals), "round \(round): a reported generation is missing")
        }
        try #require(reported.count >= 25, "too few writes to mean anything: \(reported.count)")

        let store = try sandbox.open(keep: 1_000_000)
        let newest = try store.newest(profile: "default")
        #expect(newest.notices.isEmpty)
        let top = try #require(newest.snapshot?.info.generation)
        #expect(top >= reported.last ?? 0)
        // Every file under a final name is whole, gap-free from 1, and holds its own revision.
        #expect(sandbox.files() == (1...top).map { String(format: "%010d.json.gz", $0) })
        for generation in 1...top {
            let snapshot = try store.read(profile: "default", generation: generation)
            #expect(holdsRevision(snapshot), "generation \(generation) holds the wrong layout")
        }
        #expect(try store.write(sampleEntry(top + 1)).written.map(\.generation) == [top + 1])
    }
}
