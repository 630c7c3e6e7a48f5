extension DeckValue {
    /// Whether the two stand for the same JSON value, numbers compared by
    /// value: `2` and `2.0` are one number to JSON (RFC 8259 §6), and a
    /// device that parses the layout into its own numbers (JavaScript has
    /// only doubles) sends `2.0` back as `2`.
    ///
    /// `==` stays structural on purpose: it decides when a button's encoded
    /// bytes may be reused, and `2` and `2.0` are different bytes.
    public func isSameJSON(as other: DeckValue) -> Bool {
        switch (self, other) {
        case let (.int(mine), .double(theirs)), let (.double(theirs), .int(mine)):
            // Exact: an integer beyond 2^53 equals no double it would round to.
            return Int(exactly: theirs) == mine
        case let (.array(mine), .array(theirs)):
            return mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.isSameJSON(as: $1) }
        case let (.object(mine), .object(theirs)):
            return Self.sameJSON(mine, theirs)
        default:
            return self == other
        }
    }

    /// Two settings mappings as ``isSameJSON(as:)`` compares values.
    static func sameJSON(_ mine: [String: DeckValue], _ theirs: [String: DeckValue]) -> Bool {
        guard mine.count == theirs.count else { return false }
        return mine.allSatisfy { key, value in theirs[key].map { value.isSameJSON(as: $0) } ?? false }
    }
}

extension DeckAction {
    /// Whether the two are the same action once written as JSON: a plugin's
    /// settings compare with ``DeckValue/isSameJSON(as:)``, everything else
    /// with `==`.
    public func isSameJSON(as other: DeckAction) -> Bool {
        guard case let .plugin(id, command, settings) = self,
              case let .plugin(otherID, otherCommand, otherSettings) = other else { return self == other }
        guard id == otherID, command == otherCommand else { return false }
        switch (settings, otherSettings) {
        case (nil, nil): return true
        case let (mine?, theirs?): return DeckValue.sameJSON(mine, theirs)
        default: return false
        }
    }
}

extension DeckButton {
    /// Whether a device that echoes `other` means this button: `==`, except
    /// that numbers in a plugin's settings compare by value (see
    /// ``DeckValue/isSameJSON(as:)``). The host's stale checks use it.
    public func isSameJSON(as other: DeckButton) -> Bool {
        isEqualAtLevel7(other) && style == other.style && states == other.states
    }
}
