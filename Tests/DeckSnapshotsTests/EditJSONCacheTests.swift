import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Testing

/// The edits' JSON reused from the last document (issue 28): the bytes are
/// exactly those of encoding every edit anew, whatever the lists before were.
@Suite("Edits' JSON reused between generations")
struct EditJSONCacheTests {
    /// One-slot `setButton` edits on a random layout, each a different button.
    static func edits(_ count: Int, seed: UInt64) throws -> [DeckEdit] {
        var rng = SeededGenerator(seed: seed)
        let file = RandomLayouts.layout(maxPages: 2, using: &rng)
        var layout = file
        var result: [DeckEdit] = []
        for tag in 0..<count {
            let before = layout
            try layout.set(page: 0, index: tag % layout.slotsPerPage, button: RandomLayouts.button(tag: 100 + tag, using: &rng))
            result.append(DeckEdit(kind: .set, slots: [DeckSlot(page: 0, index: tag % layout.slotsPerPage)], from: before, to: layout))
        }
        return result
    }

    @Test("appended, replaced, shortened and emptied lists encode byte for byte as without the cache")
    func sameBytes() throws {
        let a = try Self.edits(6, seed: 3), b = try Self.edits(4, seed: 4)
        let lists: [[DeckEdit]] = [
            [], [a[0]], Array(a[0...1]), Array(a[0...2]),
            [b[0]],                      // folded: a different, shorter list
            [b[0], a[3]], [b[0], a[3], a[4]],
            [a[0], a[3], a[4], a[5]],    // the first one changed, the rest in place
            Array(b[0...3]), [], Array(a[0...5]),
        ]
        var cache = EditJSONCache()
        let layout = try DeckLayout(pages: [DeckPage(buttons: [DeckButton(name: "x", action: .page(.next))])])
        for edits in lists {
            let cached = try SnapshotDocument.encode(SnapshotJSONTests.header, layout: layout, edits: edits, cache: &cache)
            #expect(cached == (try SnapshotDocument.encode(SnapshotJSONTests.header, layout: layout, edits: edits)))
            let (_, _, read) = try SnapshotDocument.decode(cached, profile: "default", generation: 3)
            #expect(read == edits)
        }
    }

    @Test("an edit with a number JSON cannot hold is refused every time, cached or not")
    func infinityStaysAnError() throws {
        // Made directly: a layout refuses such a button, an edit read from elsewhere may not.
        let button = DeckButton(name: "p", action: .plugin(id: "a", command: "b", settings: ["x": .double(.infinity)]))
        let edit = DeckEdit(kind: .set, slotsPerPage: 2,
                            changes: [.init(slot: DeckSlot(page: 0, index: 1), before: nil, after: button)])
        var cache = EditJSONCache()
        let plain = try DeckLayout(pages: [DeckPage(buttons: [DeckButton(name: "x", action: .page(.next))])])
        for _ in 0..<2 {
            #expect(throws: SnapshotError.encoding("inf cannot be written as JSON")) {
                try SnapshotDocument.encode(SnapshotJSONTests.header, layout: plain, edits: [edit], cache: &cache)
            }
        }
    }

    @Test("a store's generations read back with their edits when each carries the last one's plus its own")
    func throughTheStore() throws {
        let sandbox = try Sandbox("edit-json")
        let store = try journaled(sandbox)
        let edits = try Self.edits(8, seed: 9)
        for count in 1...8 {
            var entry = sampleEntry(count + 1)
            entry.edits = Array(edits.prefix(count))
            #expect(store.write([entry]).failure == nil)
        }
        for count in 1...8 {
            #expect(try store.read(profile: "default", generation: count + 1).edits == Array(edits.prefix(count)))
        }
    }
}
