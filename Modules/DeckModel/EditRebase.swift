/// The rebase of PROFILE.md §5: client edits made since a profile file was
/// last loaded, replayed in order on the layout of the file as it is now.
///
/// Pure: layouts and recorded edits in, a layout and the two lists out. The
/// host decides when (a reload, a start that finds the file changed) and
/// what to tell whom.
public struct EditRebase: Hashable, Sendable {
    /// An edit that could not be replayed, with why.
    public struct Dropped: Hashable, Sendable {
        /// The edit as it was recorded.
        public var edit: DeckEdit
        /// `the file changed slot 0/8`.
        public var reason: String
    }

    /// The new file's layout with every surviving edit made on it.
    public var layout: DeckLayout
    /// The edits that were replayed: they stay recorded on top of the new
    /// file, so that a second hand save rebases them again.
    public var kept: [DeckEdit]
    /// The edits whose slots the file changed (or that no longer exist), in order.
    public var dropped: [Dropped]
    /// The edits the file already holds: every slot they touched holds, in
    /// the file, what the last of them left there (PROFILE.md §5's
    /// `deckctl export` saved over the file "to adopt the edits"). Neither
    /// replayed nor dropped: the file is their record now.
    public var adopted: [DeckEdit] = []

    /// Replays `edits` in order on `file`, each only if every slot it touches
    /// still holds, in the layout so far, what it held before the edit.
    ///
    /// An edit that survives replays exactly as it was made (its slots held
    /// the same buttons), so its record stays true on the new file unchanged.
    public init(_ edits: [DeckEdit], onto file: DeckLayout) {
        // Replayed one by one, an adopted edit finds its slots changed and was
        // reported dropped, each with its "restore" advice (an audit's finding).
        if !edits.isEmpty, Self.file(file, holdsTheResultOf: edits) {
            self.layout = file
            self.kept = []
            self.dropped = []
            self.adopted = edits
            return
        }
        var layout = file
        var kept: [DeckEdit] = []
        var dropped: [Dropped] = []
        for edit in edits {
            if let next = edit.replayed(on: layout) {
                layout = next
                kept.append(edit)
            } else {
                dropped.append(Dropped(edit: edit, reason: edit.conflict(in: layout) ?? "the layout would have too many pages"))
            }
        }
        self.layout = layout
        self.kept = kept
        self.dropped = dropped
    }

    /// Whether every slot `edits` touched holds, in `file`, what the last edit
    /// to touch it left there (on the same grid), and the edits changed at
    /// least one of them: edits that add up to nothing (a set, then a clear
    /// of the same slot) are left to the replay, which keeps them.
    static func file(_ file: DeckLayout, holdsTheResultOf edits: [DeckEdit]) -> Bool {
        var first: [DeckSlot: DeckButton?] = [:]
        var final: [DeckSlot: DeckButton?] = [:]
        for edit in edits {
            guard edit.slotsPerPage == file.slotsPerPage else { return false }
            for change in edit.changes {
                if first[change.slot] == nil { first[change.slot] = .some(change.before) }
                final[change.slot] = .some(change.after)
            }
        }
        let changedSomething = final.contains { slot, after in first[slot] != after }
        return changedSomething && final.allSatisfy { slot, after in
            let held = slot.page < file.pages.count && slot.index < file.slotsPerPage
                ? file.button(page: slot.page, index: slot.index) : nil
            return held == after
        }
    }

    /// The layout `edits` were made on, given the layout after the last of them.
    public static func base(of layout: DeckLayout, undoing edits: [DeckEdit]) -> DeckLayout {
        var base = layout
        for edit in edits.reversed() { edit.undoSlots(in: &base) }
        base.normalize()
        return base
    }

    /// Edits that turn `file` into `target` (PROFILE.md §5: a restore or a
    /// profile switch counts as these for the next rebase).
    ///
    /// Changed slots are grouped so that a button which left one changed
    /// slot for another goes in the same edit as that slot: a group survives
    /// or is dropped whole, so a rebase never keeps a button's new place
    /// while the file gives its old one a different button (a double).
    /// Each group is a `restore` edit, which may write slots past the
    /// file's pages that it found empty: the restored layout can have empty
    /// pages between filled ones, which no order of sets could make.
    public static func changes(from file: DeckLayout, to target: DeckLayout) -> [DeckEdit] {
        guard file.slotsPerPage == target.slotsPerPage else {
            // Another grid: slot numbers mean other places, so the whole
            // target is one edit, made on a grid the file does not have.
            let changes = target.placedButtons.map {
                DeckEdit.SlotChange(slot: DeckSlot(page: $0.page, index: $0.index), before: nil, after: $0.button)
            }
            return changes.isEmpty ? [] : [DeckEdit(kind: .restore, slotsPerPage: target.slotsPerPage, changes: changes)]
        }
        let pageCount = max(file.pages.count, target.pages.count)
        var changed: [DeckSlot] = []
        for page in 0..<pageCount {
            // A fold compares the layout with the one its edits were made on:
            // most pages are the same storage, and most slots of the others
            // the same bits (a copied slot), so only the rest is compared.
            let both = page < file.pages.count && page < target.pages.count
            if both, file.pages[page].isSameStorage(as: target.pages[page]) { continue }
            for index in 0..<file.slotsPerPage {
                let same = both ? DeckPage.holdEqual(file.pages[page].buttons, target.pages[page].buttons, at: index)
                    : file.button(page: page, index: index) == target.button(page: page, index: index)
                if !same { changed.append(DeckSlot(page: page, index: index)) }
            }
        }
        var groups = SlotGroups(changed)
        for from in changed {
            guard let button = file.button(page: from.page, index: from.index) else { continue }
            for to in changed where to != from && holds(target, button, at: to) {
                groups.join(from, to)
            }
        }
        return groups.members.map { DeckEdit(kind: .restore, slots: $0, from: file, to: target) }
    }

    /// Whether `layout`'s `slot` holds a button equal to `button`. The names
    /// first, read in place: unequal buttons, nearly every pair a fold
    /// looks at, are then told apart without copying the slot's button.
    private static func holds(_ layout: DeckLayout, _ button: DeckButton, at slot: DeckSlot) -> Bool {
        guard layout.pages.indices.contains(slot.page), (0..<layout.slotsPerPage).contains(slot.index) else { return false }
        return layout.pages[slot.page].buttons.withUnsafeBufferPointer { slots in
            guard slot.index < slots.count, let name = slots[slot.index]?.name, name == button.name else { return false }
            return slots[slot.index] == button
        }
    }

    /// How many edits a profile carries before they are folded into the
    /// ``changes(from:to:)`` that make the same layout: each generation's
    /// snapshot carries them all, so they must stay few however long a
    /// person keeps editing between hand saves.
    public static let foldingThreshold = 64

    /// `edits` plus `edit`, folded when they pass ``foldingThreshold``.
    /// `layout` is the layout after `edit`.
    public static func recording(_ edit: DeckEdit, after edits: [DeckEdit], layout: DeckLayout) -> [DeckEdit] {
        let all = edits + [edit]
        guard all.count > foldingThreshold else { return all }
        return changes(from: base(of: layout, undoing: all), to: layout)
    }
}

/// Slots joined into groups (union–find), listed in slot order.
private struct SlotGroups {
    private var parent: [DeckSlot: DeckSlot] = [:]
    private let slots: [DeckSlot]

    init(_ slots: [DeckSlot]) {
        self.slots = slots
        for slot in slots { parent[slot] = slot }
    }

    private mutating func root(_ slot: DeckSlot) -> DeckSlot {
        var current = slot
        while let next = parent[current], next != current { current = next }
        parent[slot] = current
        return current
    }

    mutating func join(_ a: DeckSlot, _ b: DeckSlot) {
        let (ra, rb) = (root(a), root(b))
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }

    /// Each group's slots in order, groups ordered by their first slot.
    var members: [[DeckSlot]] {
        var copy = self
        var groups: [DeckSlot: [DeckSlot]] = [:]
        for slot in slots { groups[copy.root(slot), default: []].append(slot) }
        return groups.values.sorted { $0[0] < $1[0] }
    }
}
