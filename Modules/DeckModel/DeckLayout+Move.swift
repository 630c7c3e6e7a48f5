extension DeckLayout {
    /// Moves the button in one slot to another, as one atomic step.
    ///
    /// - An empty target receives the button; a filled target swaps with the
    ///   source; the same slot changes nothing.
    /// - `expecting` is the button the device picked up. If the source no
    ///   longer holds it (another device changed the slot meanwhile), the move
    ///   is refused as `stale`, so a number alone never moves the wrong button.
    ///
    /// Never a set followed by a clear: a connection lost between the two
    /// would double a button or lose one. On a throw the layout is unchanged.
    public mutating func move(
        fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int, expecting button: DeckButton
    ) throws(DeckModelError) {
        try checkRange(page: fromPage, index: fromIndex)
        try checkRange(page: toPage, index: toIndex)
        guard pages[fromPage].buttons[fromIndex] == button else {
            throw .stale(page: fromPage, index: fromIndex, expected: button.name)
        }
        if fromPage == toPage && fromIndex == toIndex { return }
        pages[fromPage].buttons[fromIndex] = pages[toPage].buttons[toIndex]
        pages[toPage].buttons[toIndex] = button
        normalize()
    }
}
