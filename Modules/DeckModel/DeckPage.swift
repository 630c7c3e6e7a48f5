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
