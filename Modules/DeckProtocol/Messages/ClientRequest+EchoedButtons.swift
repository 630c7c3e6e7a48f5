import DeckModel

extension ClientRequest {
    /// The request as the device means it: a button it names for a stale
    /// check (`clearButton`'s `expecting`, `moveButton`'s `button`,
    /// `press`'s `button`) is the slot's current button of `layout` whenever
    /// the device could not tell the two apart:
    ///
    /// - numbers in a plugin's settings compare by value (``DeckButton/isSameJSON(as:)``):
    ///   a device that parses JSON numbers as doubles sends `2.0` back as `2`;
    /// - below protocol level 8 (docs/faces.md §1) only name, icon and action
    ///   count (``DeckButton/isEqualAtLevel7(_:)``): such a device never learnt
    ///   `style` and `states`, and a move then carries them along instead of
    ///   dropping them.
    ///
    /// Anything else is returned as it is, and a real mismatch stays stale.
    public func resolvingEchoedButtons(in layout: DeckLayout, protocolLevel: Int) -> ClientRequest {
        func current(_ page: Int, _ index: Int, _ named: DeckButton) -> DeckButton {
            guard page >= 0, page < layout.pages.count, index >= 0, index < layout.slotsPerPage,
                  let button = layout.button(page: page, index: index) else { return named }
            let same = protocolLevel < 8 ? button.isEqualAtLevel7(named) : button.isSameJSON(as: named)
            return same ? button : named
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
