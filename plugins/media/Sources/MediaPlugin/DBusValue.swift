/// A D-Bus value as the media plugin reads it from a message: the few shapes
/// MPRIS uses, with everything else kept only as its type signature so a
/// player sending something odd is reported, not trusted.
///
/// Strings and arrays are cut to bounds while they are read
/// (``DBusLimits``), so a player's 1 MB title or a million-entry array costs
/// the plugin no more than the bound.
package enum DBusValue: Hashable, Sendable {
    /// `s`, `o` or `g`; `truncated` when the sender's string was longer than the bound.
    case string(String, truncated: Bool)
    /// `b`.
    case bool(Bool)
    /// `y n q i u x` (and `t` up to `Int64.max`).
    case int(Int64)
    /// `d`.
    case double(Double)
    /// `a…` other than a dictionary; `truncated` when elements were dropped.
    case array([DBusValue], truncated: Bool)
    /// `a{…}` with string keys (other keys are dropped); `truncated` as for arrays.
    case dictionary([String: DBusValue], truncated: Bool)
    /// `(…)`.
    case structure([DBusValue])
    /// Any other type (`h`, a byte array, …): its signature only.
    case other(signature: String)

    /// The string, for `s`, `o` and `g`.
    package var string: String? {
        if case .string(let value, _) = self { return value }
        return nil
    }

    /// The dictionary, for `a{s…}`.
    package var dictionary: [String: DBusValue]? {
        if case .dictionary(let value, _) = self { return value }
        return nil
    }

    /// The number, for integer types.
    package var int: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The strings of an array of strings (`as`); nil for anything else.
    package var strings: [String]? {
        guard case .array(let elements, _) = self else { return nil }
        var result: [String] = []
        for element in elements {
            guard let string = element.string else { return nil }
            result.append(string)
        }
        return result
    }

    /// A short name of the value's type for a log line (`a string`, `an array`).
    package var kindName: String {
        switch self {
        case .string: "a string"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a double"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .structure: "a structure"
        case .other(let signature): "type '\(signature)'"
        }
    }
}

/// How much of a message the plugin reads: what MPRIS needs, with room.
package enum DBusLimits {
    /// Bytes of one string kept (a title is shown in far fewer).
    package static let stringBytes = 4096
    /// Elements of one array or dictionary kept.
    package static let arrayElements = 256
    /// Containers inside containers (sd-bus allows 64; MPRIS uses 3).
    package static let depth = 16
}
