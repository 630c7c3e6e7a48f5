/// The whole layout: pages of equal size, in normal form after every edit.
///
/// The host's live layout and a device's local copy are both this type, and
/// both edit it through the same methods, so what a device draws right after
/// a drop is exactly what the host will compute.
public struct DeckLayout: Hashable, Sendable {
    /// Slots on every page.
    public private(set) var slotsPerPage: Int
    /// The pages; the last one is always empty once normalized.
    public var pages: [DeckPage]

    /// Makes a layout and puts it in normal form. Short pages are padded with
    /// empty slots; a page longer than `slotsPerPage` or a slot count outside
    /// 1…``DeckConstants/maximumSlotsPerPage`` is refused, because trimming
    /// would lose buttons.
    public init(slotsPerPage: Int = DeckConstants.defaultSlotsPerPage, pages: [DeckPage] = []) throws(DeckModelError) {
        guard (1...DeckConstants.maximumSlotsPerPage).contains(slotsPerPage) else {
            throw .invalidLayout("slotsPerPage must be between 1 and \(DeckConstants.maximumSlotsPerPage), not \(slotsPerPage)")
        }
        guard pages.count <= DeckConstants.maximumPages else {
            throw .invalidLayout("a layout may hold at most \(DeckConstants.maximumPages) pages, not \(pages.count)")
        }
        var padded = pages
        for (number, page) in pages.enumerated() {
            guard page.buttons.count <= slotsPerPage else {
                throw .invalidLayout("page \(number) has \(page.buttons.count) slots but pages hold \(slotsPerPage)")
            }
            padded[number].buttons += Array(repeating: nil, count: slotsPerPage - page.buttons.count)
        }
        self.slotsPerPage = slotsPerPage
        self.pages = padded
        normalize()
    }

    /// An empty layout: one empty page. `slotsPerPage` is kept inside
    /// 1…``DeckConstants/maximumSlotsPerPage``.
    public static func empty(slotsPerPage: Int = DeckConstants.defaultSlotsPerPage) -> DeckLayout {
        let slots = min(max(slotsPerPage, 1), DeckConstants.maximumSlotsPerPage)
        return DeckLayout(checkedSlots: slots, pages: [.empty(slots: slots)])
    }

    /// For callers that already hold a valid slot count and full pages.
    private init(checkedSlots: Int, pages: [DeckPage]) {
        self.slotsPerPage = checkedSlots
        self.pages = pages
    }

    /// The button in a slot, or nil when the slot is empty or does not exist.
    public func button(page: Int, index: Int) -> DeckButton? {
        guard pages.indices.contains(page), (0..<slotsPerPage).contains(index) else { return nil }
        return pages[page].buttons[index]
    }

    /// Every button with its position, page by page.
    public var placedButtons: [(page: Int, index: Int, button: DeckButton)] {
        pages.enumerated().flatMap { pageNumber, page in
            page.buttons.enumerated().compactMap { index, button in
                button.map { (pageNumber, index, $0) }
            }
        }
    }

    /// How many buttons the layout holds.
    public var buttonCount: Int { pages.reduce(0) { $0 + $1.buttonCount } }

    /// True when the layout is in normal form (PROTOCOL.md §3): every page has
    /// `slotsPerPage` slots, the last page is empty, and the one before it is not.
    public var isNormal: Bool {
        guard let last = pages.last, last.isEmpty else { return false }
        guard pages.allSatisfy({ $0.buttons.count == slotsPerPage }) else { return false }
        return pages.count == 1 || !pages[pages.count - 2].isEmpty
    }

    /// Throws `outOfRange` unless the slot exists. The trailing empty page is a
    /// valid place, which is how a move or a set adds a page.
    public func checkRange(page: Int, index: Int) throws(DeckModelError) {
        guard pages.indices.contains(page), (0..<slotsPerPage).contains(index) else {
            throw .outOfRange(page: page, index: index, pageCount: pages.count, slotsPerPage: slotsPerPage)
        }
    }
}
