import DeckModel
import DeckTestSupport
import Testing

/// The rebase of PROFILE.md §5 on hand-made cases.
@Suite("rebase of device edits onto a changed file")
struct RebaseTests {
    static let persist = DeckButton(name: "Persist", action: .run(command: "touch /tmp/persist"))
    static let disk = DeckButton(name: "Disk space", action: .run(command: "df -h"))

    /// Makes `edit` on `layout` the way the host does, returning its record.
    static func record(_ layout: inout DeckLayout, _ kind: DeckEdit.Kind, _ slots: [DeckSlot],
                       _ body: (inout DeckLayout) throws -> Void) throws -> DeckEdit {
        let before = layout
        try body(&layout)
        return DeckEdit(kind: kind, slots: slots, from: before, to: layout)
    }

    /// The newcomer's sequence of issue 17: a set on a device, then an
    /// unrelated hand save: the device's button stays.
    @Test func unrelatedHandEditKeepsTheDeviceEdit() throws {
        let file = try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal)])
        var live = file
        let set = try Self.record(&live, .set, [DeckSlot(page: 0, index: 8)]) {
            try $0.set(page: 0, index: 8, button: Self.persist)
        }
        let saved = try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal), (0, 2, Self.disk)])
        let rebase = EditRebase([set], onto: saved)
        #expect(rebase.dropped.isEmpty)
        #expect(rebase.kept == [set])
        #expect(rebase.layout == (try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal), (0, 2, Self.disk), (0, 8, Self.persist)])))
        // A second hand save rebases the kept edit again.
        let again = EditRebase(rebase.kept, onto: try Fixture.layout([(0, 0, Fixture.files)]))
        #expect(again.layout.button(page: 0, index: 8) == Self.persist)
    }

    /// `deckctl export -o FILE` saved over the file (PROFILE.md §5: "to adopt
    /// the edits"): the file holds what the edits left, so none is dropped,
    /// none is replayed on top of it, and none stays recorded. Each was
    /// reported dropped, with advice to restore.
    @Test func aFileThatHoldsTheEditsAdoptsThem() throws {
        let file = try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal)])
        var live = file
        let set = try Self.record(&live, .set, [DeckSlot(page: 0, index: 8)]) {
            try $0.set(page: 0, index: 8, button: Self.persist)
        }
        let move = try Self.record(&live, .move, [DeckSlot(page: 0, index: 8), DeckSlot(page: 0, index: 9)]) {
            try $0.move(fromPage: 0, fromIndex: 8, toPage: 0, toIndex: 9, expecting: Self.persist)
        }
        let clear = try Self.record(&live, .clear, [DeckSlot(page: 0, index: 1)]) {
            try $0.clear(page: 0, index: 1, expecting: Fixture.terminal)
        }
        let rebase = EditRebase([set, move, clear], onto: live)
        #expect(rebase.layout == live)
        #expect(rebase.dropped.isEmpty && rebase.kept.isEmpty)
        #expect(rebase.adopted == [set, move, clear])

        // A file that holds only some of what the edits left does not adopt them.
        var partly = live
        try partly.set(page: 0, index: 1, button: Fixture.terminal)
        let partial = EditRebase([set, move, clear], onto: partly)
        #expect(partial.adopted.isEmpty)
        #expect(!partial.dropped.isEmpty, "the set finds 0/8 as it was and the move finds 0/9 taken")
    }

    /// A hand edit of the very slot a device changed: the file wins that
    /// slot, and the edit is dropped with its name and slot.
    @Test func handEditOfTheSameSlotDropsTheDeviceEdit() throws {
        let file = try Fixture.layout([(0, 0, Fixture.files)])
        var live = file
        let set = try Self.record(&live, .set, [DeckSlot(page: 0, index: 0)]) {
            try $0.set(page: 0, index: 0, button: Self.persist)
        }
        let saved = try Fixture.layout([(0, 0, Fixture.build)])
        let rebase = EditRebase([set], onto: saved)
        #expect(rebase.layout == saved)
        #expect(rebase.kept.isEmpty)
        #expect(rebase.dropped.map(\.edit) == [set])
        #expect(rebase.dropped.first?.reason == "the file changed slot 0/0")
        #expect(set.summary == "set 'Persist' at 0/0")
    }

    /// The seed's rule: a move whose source the file renamed is dropped, so
    /// the renamed button is not doubled at the target and none is lost.
    @Test func moveWhoseSourceTheFileRenamedIsDropped() throws {
        let file = try Fixture.layout([(0, 1, Fixture.files)])
        var live = file
        let move = try Self.record(&live, .move, [DeckSlot(page: 0, index: 1), DeckSlot(page: 1, index: 0)]) {
            try $0.move(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, expecting: Fixture.files)
        }
        var renamed = Fixture.files
        renamed.name = "My files"
        let saved = try Fixture.layout([(0, 1, renamed)])
        let rebase = EditRebase([move], onto: saved)
        #expect(rebase.layout == saved)
        #expect(rebase.layout.buttonCount == 1)
        #expect(rebase.dropped.map(\.edit.summary) == ["move 'Files' 0/1 -> 1/0"])
    }

    /// An edit whose slots no longer exist, or that was made on another
    /// grid, is dropped the same way.
    @Test func editOfVanishedSlotsIsDropped() throws {
        let file = try Fixture.layout([(0, 0, Fixture.files), (1, 0, Fixture.terminal)])
        var live = file
        let set = try Self.record(&live, .set, [DeckSlot(page: 2, index: 3)]) {
            try $0.set(page: 2, index: 3, button: Self.persist)
        }
        let shorter = EditRebase([set], onto: try Fixture.layout([(0, 0, Fixture.files)]))
        #expect(shorter.dropped.first?.reason == "slot 2/3 no longer exists")
        let regridded = EditRebase([set], onto: try Fixture.layout([(0, 0, Fixture.files), (1, 0, Fixture.terminal)], slots: 6))
        #expect(regridded.dropped.first?.reason == "the file has 6 slots per page, not 12")
    }

    /// Later edits are checked against the layout the earlier survivors made:
    /// a move onto a slot an earlier set filled still replays.
    @Test func editsReplayInOrder() throws {
        let file = try Fixture.layout([(0, 0, Fixture.files)])
        var live = file
        let set = try Self.record(&live, .set, [DeckSlot(page: 0, index: 5)]) { try $0.set(page: 0, index: 5, button: Self.persist) }
        let move = try Self.record(&live, .move, [DeckSlot(page: 0, index: 5), DeckSlot(page: 0, index: 0)]) {
            try $0.move(fromPage: 0, fromIndex: 5, toPage: 0, toIndex: 0, expecting: Self.persist)
        }
        let clear = try Self.record(&live, .clear, [DeckSlot(page: 0, index: 5)]) { try $0.clear(page: 0, index: 5) }
        let saved = try Fixture.layout([(0, 0, Fixture.files), (0, 11, Self.disk)])
        let rebase = EditRebase([set, move, clear], onto: saved)
        #expect(rebase.dropped.isEmpty)
        #expect(rebase.layout == (try Fixture.layout([(0, 0, Self.persist), (0, 11, Self.disk)])))
        #expect(EditRebase.base(of: live, undoing: [set, move, clear]) == file)
    }
}
