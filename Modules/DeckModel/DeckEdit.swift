/// A slot's address: page and index, both 0-based.
public struct DeckSlot: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The page.
    public var page: Int
    /// The slot on that page.
    public var index: Int

    /// Names a slot.
    public init(page: Int, index: Int) {
        self.page = page
        self.index = index
    }

    /// Page order, then slot order.
    public static func < (lhs: DeckSlot, rhs: DeckSlot) -> Bool {
        (lhs.page, lhs.index) < (rhs.page, rhs.index)
    }

    /// `0/8`, as logs and CLI.md write a slot.
    public var description: String { "\(page)/\(index)" }
}

/// One accepted client edit as its generation records it (PROFILE.md §5):
/// the request, and what every slot it touched held before and after it.
///
/// Recording both sides of every touched slot is what makes an edit
/// replayable on another layout (a rebase: only where every slot still holds
/// its `before`) and reversible (``undo(on:)``), whatever the request was.
public struct DeckEdit: Hashable, Sendable {
    /// What was asked, which decides how the edit is named.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `setButton`.
        case set = "setButton"
        /// `clearButton`.
        case clear = "clearButton"
        /// `moveButton`: the first slot is the source, the second the target.
        case move = "moveButton"
        /// Slots a `restore` or a profile switch changed, counted as one edit
        /// so that its buttons survive or go together (never doubled). It
        /// may fill slots past the layout's pages (they are added).
        case restore
    }

    /// One touched slot.
    public struct SlotChange: Hashable, Sendable {
        /// Where.
        public var slot: DeckSlot
        /// What it held before the edit (nil: empty).
        public var before: DeckButton?
        /// What it holds after.
        public var after: DeckButton?

        /// Records one slot's change.
        public init(slot: DeckSlot, before: DeckButton?, after: DeckButton?) {
            self.slot = slot
            self.before = before
            self.after = after
        }
    }

    /// The request.
    public var kind: Kind
    /// The layout's `slotsPerPage` when it was made: a slot number means
    /// another place on another grid, so the edit only replays on the same one.
    public var slotsPerPage: Int
    /// Every slot it touched, in the request's order (a move: source, then target).
    public var changes: [SlotChange]

    /// Records an edit from its parts.
    public init(kind: Kind, slotsPerPage: Int, changes: [SlotChange]) {
        self.kind = kind
        self.slotsPerPage = slotsPerPage
        self.changes = changes
    }

    /// Records an edit of `slots` that turned `before` into `after`.
    public init(kind: Kind, slots: [DeckSlot], from before: DeckLayout, to after: DeckLayout) {
        self.init(kind: kind, slotsPerPage: before.slotsPerPage, changes: slots.map {
            SlotChange(slot: $0, before: before.button(page: $0.page, index: $0.index),
                       after: after.button(page: $0.page, index: $0.index))
        })
    }

    /// The button the edit is about: the one set, cleared or moved.
    public var button: DeckButton? {
        switch kind {
        case .clear: changes.first?.before
        case .move: changes.first?.before
        case .set, .restore: changes.lazy.compactMap { $0.after ?? $0.before }.first
        }
    }

    /// `set 'Persist' at 0/8`, `move 'Files' 0/1 -> 1/0`: the edit named by
    /// its button and slot, for the log, `status` and `deckctl watch`.
    public var summary: String {
        let name = button.map { "'\($0.name)'" } ?? "an empty slot"
        let slots = changes.map(\.slot.description)
        switch kind {
        case .set: return "set \(name) at \(slots.joined(separator: ", "))"
        case .clear: return "clear \(name) at \(slots.joined(separator: ", "))"
        case .move: return "move \(name) \(slots.joined(separator: " -> "))"
        case .restore:
            let names = changes.compactMap { ($0.after ?? $0.before).map { "'\($0.name)'" } }
            return "restore of \(names.isEmpty ? "empty slots" : names.joined(separator: ", ")) at \(slots.joined(separator: ", "))"
        }
    }

    /// Why the edit cannot be replayed on `layout`, or nil when it can:
    /// every slot exists there and holds what it held before the edit (the
    /// stale check of PROTOCOL.md §4, for every kind).
    public func conflict(in layout: DeckLayout) -> String? {
        guard layout.slotsPerPage == slotsPerPage else {
            return "the file has \(layout.slotsPerPage) slots per page, not \(slotsPerPage)"
        }
        for change in changes {
            let exists = layout.pages.indices.contains(change.slot.page) || (kind == .restore && change.before == nil)
            guard exists, change.slot.page >= 0, (0..<slotsPerPage).contains(change.slot.index) else {
                return "slot \(change.slot) no longer exists"
            }
            if layout.button(page: change.slot.page, index: change.slot.index) != change.before {
                return "the file changed slot \(change.slot)"
            }
        }
        return nil
    }

    /// The layout with the edit made again; nil when ``conflict(in:)`` finds
    /// a reason not to, or the result would hold more pages than allowed.
    public func replayed(on layout: DeckLayout) -> DeckLayout? {
        guard conflict(in: layout) == nil else { return nil }
        var result = layout
        for change in changes { result.write(change.after, at: change.slot) }
        result.normalize()
        return result.pages.count <= DeckConstants.maximumPages ? result : nil
    }

    /// The layout as it was before the edit, given the layout right after it.
    public func undo(on layout: DeckLayout) -> DeckLayout {
        var result = layout
        undo(in: &result)
        return result
    }

    /// The same in place: undoing many edits in a row copies each page once,
    /// not once per edit (a fold of 64 edits was ~1.4 M instructions).
    public func undo(in layout: inout DeckLayout) {
        undoSlots(in: &layout)
        layout.normalize()
    }

    /// Writes back what its slots held, without normalizing: a run of undos
    /// normalizes once at its end (the slots come out the same).
    func undoSlots(in layout: inout DeckLayout) {
        for change in changes.reversed() { layout.write(change.before, at: change.slot) }
    }
}

extension DeckLayout {
    /// Writes a slot, adding empty pages up to it when normalization trimmed
    /// them (undoing a clear of the last button can need a page back).
    mutating func write(_ button: DeckButton?, at slot: DeckSlot) {
        guard (0..<slotsPerPage).contains(slot.index), slot.page >= 0 else { return }
        while pages.count <= slot.page { pages.append(.empty(slots: slotsPerPage)) }
        pages[slot.page].buttons[slot.index] = button
    }
}
