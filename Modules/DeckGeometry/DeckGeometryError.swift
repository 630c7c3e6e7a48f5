/// A grid that cannot be laid out, as a sentence a person can act on.
public enum DeckGeometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The grid's numbers do not describe any drawable grid.
    case invalidGrid(String)

    /// The sentence.
    public var description: String {
        switch self {
        case .invalidGrid(let reason): reason
        }
    }
}
