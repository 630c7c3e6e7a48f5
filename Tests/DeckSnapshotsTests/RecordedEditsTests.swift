import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Testing

/// PROFILE.md §5: a generation records the client edits since its file was
/// loaded, each with what its slots held; snapshots from before that still read.
@Suite("Edits recorded in snapshots")
struct RecordedEditsTests {
    @Test("recorded edits read back equal, settings and empty sides included")
    func roundTrip() throws {
        var rng = SeededGenerator(seed: 17)
        let file = RandomLayouts.layout(maxPages: 2, using: &rng)
        var layout = file
        let button = RandomLayouts.button(tag: 900, using: &rng)
        try layout.set(page: 0, index: 3, button: button)
        let set = DeckEdit(kind: .set, slots: [DeckSlot(page: 0, index: 3)], from: file, to: layout)
        let moved = layout
        try layout.move(fromPage: 0, fromIndex: 3, toPage: 1, toIndex: 0, expecting: button)
        let move = DeckEdit(kind: .move, slots: [DeckSlot(page: 0, index: 3), DeckSlot(page: 1, index: 0)], from: moved, to: layout)
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try store.write(SnapshotEntry(profile: "default", revision: 5, reason: "moveButton", source: nil, layout: layout,
                                      edits: [set, move]))
        let read = try store.read(profile: "default", generation: 1)
        #expect(read.edits == [set, move])
        #expect(read.layout == layout)
        // A generation with no edits says so: `[]`, not "unknown".
        try store.write(SnapshotEntry(profile: "default", revision: 6, reason: "reload", source: nil, layout: file))
        #expect(try store.read(profile: "default", generation: 2).edits == [])
    }

    @Test("a snapshot written before edits were recorded reads with edits unknown")
    func oldSnapshotsStillRead() throws {
        let old = Array((#"{"format":"deck-snapshot","version":1,"profile":"default","generation":3,"revision":9,"#
            + #""time":"1970-01-01T00:00:00Z","reason":"setButton","layout":{"slotsPerPage":1,"pages":[{"buttons":[null]}]}}"#).utf8)
        let (header, layout, edits) = try SnapshotDocument.decode(old, profile: "default", generation: 3)
        #expect(header.reason == "setButton")
        #expect(layout.buttonCount == 0)
        #expect(edits == nil)
    }

    @Test("a damaged edit record is a damaged snapshot, with a sentence")
    func badRecordsAreRefused() throws {
        let bad = Array((#"{"format":"deck-snapshot","version":1,"profile":"default","generation":3,"revision":9,"#
            + #""time":"1970-01-01T00:00:00Z","reason":"setButton","layout":{"slotsPerPage":1,"pages":[{"buttons":[null]}]},"#
            + #""edits":[{"request":"setButton","slotsPerPage":1,"slots":[{"page":0,"index":4,"before":null,"after":null}]}]}"#).utf8)
        #expect(throws: DocumentProblem.self) { try SnapshotDocument.decode(bad, profile: "default", generation: 3) }
    }
}
