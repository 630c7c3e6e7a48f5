extension DeckLayout {
    /// Puts the layout in normal form: trailing empty pages trimmed, then
    /// exactly one empty page appended. Empty pages between filled ones stay,
    /// because a person left them there on purpose.
    public mutating func normalize() {
        // Already normal (the usual case after an edit): leave the pages as
        // they are, so the empty last page keeps its storage and nothing is copied.
        if isNormalAtTheEnd { return }
        while let last = pages.last, last.isEmpty {
            pages.removeLast()
        }
        pages.append(.empty(slots: slotsPerPage))
    }

    /// The end of the layout is what ``normalize()`` makes: one empty,
    /// untitled page of `slotsPerPage` slots, after a page that is not empty.
    private var isNormalAtTheEnd: Bool {
        guard let last = pages.last, last.title == nil, last.buttons.count == slotsPerPage, last.isEmpty else { return false }
        return pages.count == 1 || !pages[pages.count - 2].isEmpty
    }

    /// A copy in normal form.
    public func normalized() -> DeckLayout {
        var copy = self
        copy.normalize()
        return copy
    }
}
