/// A parsed JSON value, as the codec's own parser produces it.
///
/// The codec parses into this small tree (rather than going through
/// `Codable`) so that it can tell a wrong type from a broken rule, name the
/// offending field, bound the nesting depth, and never trap on any input.
enum JSONValue {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other finite number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// How an error message names this kind of value ("not a string").
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as an integer: an integer literal, or a number with no
    /// fractional part that fits in `Int` (`7.0` from a client whose JSON
    /// library writes every number as a float).
    var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The value as a finite floating-point number.
    var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }
}

/// A JSON object's members in the order they were written.
///
/// Objects in protocol messages are small, so a linear scan beats hashing.
/// When a key is written twice the last one wins, as in JavaScript's and
/// Python's JSON parsers (the clients most likely to meet this host).
struct JSONObject {
    var members: [(key: String, value: JSONValue)]

    /// The value of `key`'s last occurrence, or nil when the key is absent.
    subscript(key: String) -> JSONValue? {
        for member in members.reversed() where member.key == key {
            return member.value
        }
        return nil
    }
}
