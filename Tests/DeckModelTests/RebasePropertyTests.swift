import DeckModel
import DeckTestSupport
import Testing

/// Issue 17's property: random layouts, random device edits, random file
/// edits — on other slots every device edit survives and nothing is
/// doubled; on any slots nothing is ever doubled.
@Suite("rebase on random layouts and edits")
struct RebasePropertyTests {
    /// Random accepted device edits on `layout`, recorded as the host records them.
    static func deviceEdits(on layout: inout DeckLayout, count: Int, tag: inout Int,
                            using rng: inout SeededGenerator) -> [DeckEdit] {
        var edits: [DeckEdit] = []
        for _ in 0..<count {
            let before = layout
            let page = Int.random(in: 0..<layout.pages.count, using: &rng)
            let index = Int.random(in: 0..<layout.slotsPerPage, using: &rng)
            let slot = DeckSlot(page: page, index: index)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                tag += 1
                guard (try? layout.set(page: page, index: index, button: RandomLayouts.button(tag: tag, using: &rng))) != nil else { continue }
                edits.append(DeckEdit(kind: .set, slots: [slot], from: before, to: layout))
            case 1:
                guard before.button(page: page, index: index) != nil, (try? layout.clear(page: page, index: index)) != nil else { continue }
                edits.append(DeckEdit(kind: .clear, slots: [slot], from: before, to: layout))
            default:
                guard let source = layout.placedButtons.randomElement(using: &rng) else { continue }
                let from = DeckSlot(page: source.page, index: source.index)
                guard from != slot, (try? layout.move(fromPage: from.page, fromIndex: from.index, toPage: page, toIndex: index,
                                                      expecting: source.button)) != nil else { continue }
                edits.append(DeckEdit(kind: .move, slots: [from, slot], from: before, to: layout))
            }
        }
        return edits
    }

    static func slots(_ layout: DeckLayout) -> [[DeckButton?]] { layout.pages.map(\.buttons) }

    static func counts(_ layout: DeckLayout) -> [DeckButton: Int] {
        Dictionary(layout.placedButtons.map { ($0.button, 1) }, uniquingKeysWith: +)
    }

    /// A random file of one of `grids`, and 1–25 random device edits made on it.
    static func editedFile(_ rng: inout SeededGenerator, grids: [Int], tag: inout Int)
        -> (file: DeckLayout, live: DeckLayout, edits: [DeckEdit]) {
        let slots = grids.randomElement(using: &rng)!
        let file = RandomLayouts.layout(maxPages: 3, slots: slots, using: &rng)
        var live = file
        let edits = Self.deviceEdits(on: &live, count: Int.random(in: 1...25, using: &rng), tag: &tag, using: &rng)
        return (file, live, edits)
    }

    @Test(arguments: 0..<400 as Range<UInt64>)
    func fileEditsOnOtherSlotsKeepEveryDeviceEdit(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 7919 &+ 17)
        var tag = 10_000
        let (file, live, edits) = Self.editedFile(&rng, grids: [12, 6, 3, 1], tag: &tag)
        let slots = file.slotsPerPage
        let touched = Set(edits.flatMap { $0.changes.map(\.slot) })

        // The hand save: changes of slots no device edit touched, made both
        // on the file and (the oracle) on the live layout.
        var saved = file
        var expected = live
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let slot = DeckSlot(page: Int.random(in: 0..<saved.pages.count, using: &rng),
                                index: Int.random(in: 0..<slots, using: &rng))
            // Other slots: untouched by the device, and there on both sides
            // (a device's clear can trim a page the file still has).
            guard !touched.contains(slot), slot.page < expected.pages.count else { continue }
            tag += 1
            let button: DeckButton? = Bool.random(using: &rng) ? RandomLayouts.button(tag: tag, using: &rng) : nil
            var nextSaved = saved
            var nextExpected = expected
            if let button {
                try? nextSaved.set(page: slot.page, index: slot.index, button: button)
                try? nextExpected.set(page: slot.page, index: slot.index, button: button)
            } else {
                try? nextSaved.clear(page: slot.page, index: slot.index)
                try? nextExpected.clear(page: slot.page, index: slot.index)
            }
            // A save that removes pages removes slots device edits may use: not "other slots".
            guard nextSaved.pages.count >= file.pages.count else { continue }
            saved = nextSaved
            expected = nextExpected
        }

        let rebase = EditRebase(edits, onto: saved)
        #expect(rebase.dropped.isEmpty, "seed \(seed): \(rebase.dropped.map(\.reason))")
        #expect(rebase.kept == edits)
        #expect(Self.slots(rebase.layout) == Self.slots(expected), "seed \(seed)")
        #expect(rebase.layout.isNormal)
        // Nothing doubled: every button is there exactly as often as in the
        // hand-saved file with the device edits made on it.
        #expect(Self.counts(rebase.layout) == Self.counts(expected))
        #expect(Self.counts(rebase.layout).values.allSatisfy { $0 == 1 }, "seed \(seed)")
    }

    /// The live layout saved over the file (`deckctl export -o`): nothing is
    /// dropped and the layout stays the live one, whatever the edits were.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func theLiveLayoutSavedOverTheFileDropsNothing(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 104_729 &+ 5)
        var tag = 10_000
        let (_, live, edits) = Self.editedFile(&rng, grids: [12, 6, 3, 1], tag: &tag)
        let rebase = EditRebase(edits, onto: live)
        #expect(rebase.dropped.isEmpty, "seed \(seed): \(rebase.dropped.map(\.reason))")
        #expect(rebase.layout == live, "seed \(seed)")
        #expect(rebase.adopted.count + rebase.kept.count == edits.count)
    }

    /// File edits anywhere, device edits' slots included: edits may be
    /// dropped, but no button ever ends up more often than the file or the
    /// layouts the device went through had it, and the kept edits replay to the same layout.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func fileEditsAnywhereNeverDouble(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &* 104_729 &+ 3)
        var tag = 10_000
        let (file, live, edits) = Self.editedFile(&rng, grids: [12, 4, 2], tag: &tag)
        let slots = file.slotsPerPage
        var saved = file
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let page = Int.random(in: 0..<saved.pages.count, using: &rng)
            let index = Int.random(in: 0..<slots, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                tag += 1
                try? saved.set(page: page, index: index, button: RandomLayouts.button(tag: tag, using: &rng))
            case 1:
                try? saved.clear(page: page, index: index)
            default:
                // A rename by hand: the same place, another button.
                if var button = saved.button(page: page, index: index) {
                    button.name += " (renamed)"
                    try? saved.set(page: page, index: index, button: button)
                }
            }
        }
        let rebase = EditRebase(edits, onto: saved)
        // A dropped edit can leave a button an earlier one placed (a device
        // set it, then put another over it): the bound is the most copies
        // the saved file or any layout the device went through had.
        var most = Self.counts(saved)
        var step = file
        for layout in [file] + edits.map({ edit in step = edit.replayed(on: step) ?? step; return step }) {
            most.merge(Self.counts(layout), uniquingKeysWith: max)
        }
        #expect(step == live)
        for (button, count) in Self.counts(rebase.layout) {
            #expect(count <= most[button] ?? 0, "seed \(seed): \(button.name) doubled")
        }
        #expect(rebase.kept.count + rebase.dropped.count + rebase.adopted.count == edits.count)
        #expect(EditRebase(rebase.kept, onto: saved).layout == rebase.layout)
        #expect(rebase.layout.isNormal)
    }

    /// A restore's edits (``EditRebase/changes(from:to:)``) turn the file into
    /// the restored layout, and undoing them gives the file back.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func changesTurnTheFileIntoTheTarget(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &+ 99)
        let slots = [12, 5, 1].randomElement(using: &rng)!
        let file = RandomLayouts.layout(maxPages: 3, slots: slots, using: &rng)
        var target = file
        var tag = 10_000
        _ = Self.deviceEdits(on: &target, count: Int.random(in: 0...30, using: &rng), tag: &tag, using: &rng)
        let changes = EditRebase.changes(from: file, to: target)
        // Page titles are the file's, not edits': compared are the slots.
        #expect(Self.slots(EditRebase(changes, onto: file).layout) == Self.slots(target), "seed \(seed)")
        #expect(EditRebase(changes, onto: file).dropped.isEmpty)
        #expect(Self.slots(EditRebase.base(of: target, undoing: changes)) == Self.slots(file), "seed \(seed)")
    }

    /// The base of a run of edits, undone in place and normalized once, is
    /// the layout undoing them one at a time (each normalized) gives, and the
    /// layout they were made on.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func theBaseIsTheLayoutTheEditsWereMadeOn(seed: UInt64) {
        var rng = SeededGenerator(seed: seed &+ 0xBA5E)
        let file = RandomLayouts.layout(maxPages: 3, slots: [12, 5, 1].randomElement(using: &rng)!, using: &rng)
        var live = file
        var tag = 20_000
        let edits = Self.deviceEdits(on: &live, count: Int.random(in: 0...70, using: &rng), tag: &tag, using: &rng)
        let base = EditRebase.base(of: live, undoing: edits)
        #expect(base == edits.reversed().reduce(live) { $1.undo(on: $0) }, "seed \(seed)")
        #expect(Self.slots(base) == Self.slots(file.normalized()), "seed \(seed)")
        #expect(base.isNormal)
    }

    /// However many edits a person makes between hand saves, the record
    /// stays bounded and still makes the same layout from the file.
    @Test func recordsAreFolded() {
        var rng = SeededGenerator(seed: 5)
        let file = RandomLayouts.layout(maxPages: 2, slots: 12, using: &rng)
        var live = file
        var tag = 10_000
        var recorded: [DeckEdit] = []
        for _ in 0..<500 {
            for edit in Self.deviceEdits(on: &live, count: 1, tag: &tag, using: &rng) {
                recorded = EditRebase.recording(edit, after: recorded, layout: live)
            }
            #expect(recorded.count <= max(EditRebase.foldingThreshold + 1, live.pages.count * live.slotsPerPage))
        }
        #expect(EditRebase(recorded, onto: file).layout == live)
    }
}
