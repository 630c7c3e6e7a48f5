extension DeckEvent {
    /// An accepted edit in words, as the host logs it and `deckctl watch`
    /// prints it — CLI.md's `moved 'Files' 0/1 -> 1/0`, then `by` and who
    /// — without the `by` part; nil for events that are not edits.
    ///
    /// One wording for both, so a line in the log and a line of `watch`
    /// about the same edit read alike. `name` prepares each button name
    /// (`deckctl` cleans it for a terminal; the host's logger escapes
    /// control characters itself).
    public func editSummary(name: (String) -> String = { $0 }) -> String? {
        switch self {
        case let .set(page, index, button, replaced, _, _):
            return "set '\(name(button))' at \(page)/\(index)" + (replaced.map { " (replacing '\(name($0))')" } ?? "")
        case let .clear(page, index, button, _, _):
            return button.map { "cleared '\(name($0))' at \(page)/\(index)" } ?? "cleared \(page)/\(index) (it was empty)"
        case let .move(fromPage, fromIndex, toPage, toIndex, button, swapped, _, _):
            return "moved '\(name(button))' \(fromPage)/\(fromIndex) -> \(toPage)/\(toIndex)"
                + (swapped.map { " (swapped with '\(name($0))')" } ?? "")
        default:
            return nil
        }
    }
}
