/// One page of buttons: exactly `slotsPerPage` slots, `nil` for an empty one.
public struct DeckPage: Hashable, Sendable {
    /// An optional heading a profile may give the page.
    public var title: String?
    /// The slots, in order; an empty slot is `nil`.
    public var buttons: [DeckButton?]

    /// Makes a page from its slots.
    public init(title: String? = nil, buttons: [DeckButton?]) {
        self.title = title
        self.buttons = buttons
    }

    /// An empty page of `slots` slots.
    public static func empty(slots: Int) -> DeckPage {
        DeckPage(buttons: Array(repeating: nil, count: slots))
    }

    /// True when no slot holds a button (a title alone does not make a page filled).
    public var isEmpty: Bool { buttons.allSatisfy { $0 == nil } }

    /// How many slots hold a button.
    public var buttonCount: Int { buttons.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
}

extension DeckPage {
    /// True when both pages have the same title and their slots are one and
    /// the same array storage, so they are equal without comparing a button;
    /// false says nothing (equal pages may be stored apart).
    package func isSameStorage(as other: DeckPage) -> Bool {
        guard title == other.title, buttons.count == other.buttons.count else { return false }
        return buttons.withUnsafeBufferPointer { mine in
            other.buttons.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }

    /// Whether `slot` of both arrays holds bit for bit the same value, which
    /// is then equal and encodes to the same bytes, found without copying or
    /// comparing a button (a slot an edit did not touch, of a page it copied,
    /// shares every string's storage with the one before). False says
    /// nothing: equal values may differ in their bits, as two copies of one
    /// string do, so a caller compares them next.
    package static func identical(_ mine: [DeckButton?], _ theirs: [DeckButton?], at slot: Int) -> Bool {
        guard mine.indices.contains(slot), theirs.indices.contains(slot) else { return false }
        return mine.withUnsafeBufferPointer { mine in
            theirs.withUnsafeBufferPointer { theirs in
                guard let a = mine.baseAddress, let b = theirs.baseAddress else { return false }
                let x = UnsafeRawPointer(a + slot), y = UnsafeRawPointer(b + slot)
                let size = MemoryLayout<DeckButton?>.size
                var offset = 0
                while offset + 8 <= size {
                    guard x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            == y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                    offset += 8
                }
                while offset < size {
                    guard x.load(fromByteOffset: offset, as: UInt8.self) == y.load(fromByteOffset: offset, as: UInt8.self) else {
                        return false
                    }
                    offset += 1
                }
                return true
            }
        }
    }

    /// Whether `slot` of both arrays surely holds equal values, found without
    /// looking at empty slots: the same bits, or two buttons that compare
    /// equal once unwrapped (`==` of two optionals copies both through the
    /// generic value witnesses, and so does an element's `!= nil`). False
    /// for two empty slots whose bits differ.
    package static func surelyHoldEqual(_ mine: [DeckButton?], _ theirs: [DeckButton?], at slot: Int) -> Bool {
        guard mine.indices.contains(slot), theirs.indices.contains(slot) else { return false }
        if identical(mine, theirs, at: slot) { return true }
        guard let button = mine[slot], let other = theirs[slot] else { return false }
        return button == other
    }

    /// Whether `slot` of both arrays holds equal values, empty slots (and a
    /// slot past an array's end) equal to each other.
    package static func holdEqual(_ mine: [DeckButton?], _ theirs: [DeckButton?], at slot: Int) -> Bool {
        if surelyHoldEqual(mine, theirs, at: slot) { return true }
        let emptyMine = !mine.indices.contains(slot) || mine[slot] == nil
        let emptyTheirs = !theirs.indices.contains(slot) || theirs[slot] == nil
        return emptyMine && emptyTheirs
    }
}
