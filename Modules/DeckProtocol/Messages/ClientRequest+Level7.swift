import DeckModel

extension ClientRequest {
    /// The request as a device below protocol level 8 means it (docs/faces.md
    /// §1): such a device never learnt `style` and `states`, so a button it
    /// names for a stale check (`clearButton`'s `expecting`, `moveButton`'s
    /// `button`, `press`'s `button`) is the slot's current button of `layout`
    /// whenever the two are equal at level 7 (name, icon, action). A move
    /// then carries the style and states along instead of dropping them.
    /// Anything else is returned as it is, and a real mismatch stays stale.
    public func upgradingLevel7Buttons(in layout: DeckLayout) -> ClientRequest {
        func current(_ page: Int, _ index: Int, _ named: DeckButton) -> DeckButton {
            guard page >= 0, page < layout.pages.count, index >= 0, index < layout.slotsPerPage,
                  let button = layout.button(page: page, index: index), button.isEqualAtLevel7(named) else { return named }
            return button
        }
        switch self {
        case let .clearButton(page, index, expecting?):
            return .clearButton(page: page, index: index, expecting: current(page, index, expecting))
        case let .moveButton(fromPage, fromIndex, toPage, toIndex, button):
            return .moveButton(fromPage: fromPage, fromIndex: fromIndex, toPage: toPage, toIndex: toIndex,
                               button: current(fromPage, fromIndex, button))
        case let .press(page, index, button?, phase):
            return .press(page: page, index: index, button: current(page, index, button), phase: phase)
        default:
            return self
        }
    }
}
