/// Everything that can go wrong with a layout edit or a button, as a sentence.
public enum DeckModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A page or slot outside the layout. `pageCount` and `slotsPerPage` say what exists.
    case outOfRange(page: Int, index: Int, pageCount: Int, slotsPerPage: Int)
    /// The slot no longer holds the button the request was made for.
    case stale(page: Int, index: Int, expected: String)
    /// A button that breaks a rule the types cannot express.
    case invalidButton(String)
    /// A layout whose shape is wrong (page sizes, slot count).
    case invalidLayout(String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case let .outOfRange(page, index, pageCount, slotsPerPage):
            if page < 0 || page >= pageCount {
                return "page \(page) does not exist (the layout has pages 0 to \(pageCount - 1))"
            }
            return "slot \(index) does not exist (a page has slots 0 to \(slotsPerPage - 1))"
        case let .stale(page, index, expected):
            return "slot \(page)/\(index) no longer holds '\(expected)'"
        case let .invalidButton(reason):
            return reason
        case let .invalidLayout(reason):
            return reason
        }
    }
}
