extension DeckLayout {
    /// Puts the layout in normal form: trailing empty pages trimmed, then
    /// exactly one empty page appended. Empty pages between filled ones stay,
    /// because a person left them there on purpose.
    public mutating func normalize() {
        while let last = pages.last, last.isEmpty {
            pages.removeLast()
        }
        pages.append(.empty(slots: slotsPerPage))
    }

    /// A copy in normal form.
    public func normalized() -> DeckLayout {
        var copy = self
        copy.normalize()
        return copy
    }
}
