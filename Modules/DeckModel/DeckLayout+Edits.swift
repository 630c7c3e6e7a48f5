extension DeckLayout {
    /// Puts `button` in a slot, replacing whatever is there.
    ///
    /// Throws `outOfRange` or `invalidButton`; on a throw the layout is unchanged.
    public mutating func set(page: Int, index: Int, button: DeckButton) throws(DeckModelError) {
        try checkRange(page: page, index: index)
        try button.validate()
        pages[page].buttons[index] = button
        normalize()
    }

    /// Empties a slot. With `expecting`, only if the slot still holds exactly
    /// that button (`stale` otherwise, including when the slot is already empty).
    ///
    /// Clearing an already empty slot without `expecting` changes nothing and is not an error.
    public mutating func clear(page: Int, index: Int, expecting: DeckButton? = nil) throws(DeckModelError) {
        try checkRange(page: page, index: index)
        if let expecting, pages[page].buttons[index] != expecting {
            throw .stale(page: page, index: index, expected: expecting.name)
        }
        pages[page].buttons[index] = nil
        normalize()
    }
}
