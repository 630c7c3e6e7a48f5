/// One chord of a `keys` setting: every key but the last is held while the
/// last is pressed (`ctrl+shift+t`); all are released in reverse.
public struct KeyChord: Hashable, Sendable {
    /// The keysyms in the order they go down.
    public var keysyms: [Keysym]

    /// Makes a chord.
    public init(_ keysyms: [Keysym]) {
        self.keysyms = keysyms
    }
}

extension KeyNames {
    /// Parses a `keys` setting: chords separated by spaces, keys of a chord
    /// by `+` (a `+` where a key name starts is the plus key: `ctrl++`).
    ///
    /// Throws ``KeysError/unknownKey(name:column:suggestion:)`` naming the
    /// first unknown key with its 1-based column, or
    /// ``KeysError/emptyChord(column:)``.
    public func chords(_ keys: String) throws(KeysError) -> [KeyChord] {
        var chords: [KeyChord] = []
        var chord: [Keysym] = []
        var name = ""
        var nameColumn = 1
        var chordColumn = 1
        var column = 0
        var expectingKey = true  // at a chord's start or just after a '+'

        func endKey() throws(KeysError) {
            guard !name.isEmpty else { throw .emptyChord(column: chordColumn) }
            guard let symbol = keysym(name) else {
                throw .unknownKey(name: name, column: nameColumn, suggestion: suggestion(for: name))
            }
            chord.append(symbol)
            name = ""
        }
        func endChord() throws(KeysError) {
            try endKey()
            chords.append(KeyChord(chord))
            chord = []
            guard chords.count <= KeysLimits.maximumChords else { throw .emptyChord(column: column) }
        }

        for character in keys {
            column += 1
            if character.isWhitespace {
                if !expectingKey || !name.isEmpty { try endChord() }
                else if !chord.isEmpty { throw .emptyChord(column: chordColumn) }
                expectingKey = true
                chordColumn = column + 1
                continue
            }
            if character == "+" && !(expectingKey && name.isEmpty) {
                try endKey()
                expectingKey = true
                continue
            }
            if name.isEmpty { nameColumn = column }
            if chord.isEmpty && name.isEmpty && expectingKey { chordColumn = column }
            name.append(character)
            expectingKey = false
        }
        if !name.isEmpty { try endChord() }
        else if !chord.isEmpty { throw .emptyChord(column: chordColumn) }
        guard !chords.isEmpty else { throw .emptyChord(column: 1) }
        return chords
    }
}
