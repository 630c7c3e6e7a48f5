import DeckModel

/// The `id` a client may put on a request: a JSON string or integer, echoed
/// unchanged on the request's reply (PROTOCOL.md §1).
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case int(Int)
    case string(String)

    /// The id as JSON shows it: `3` or `"a"`.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }

    /// Reads an id from a parsed value. `null` counts as no id; any other
    /// value that is not a string or an integer is unreadable (`.failure`).
    static func read(_ value: JSONValue?) -> Result<RequestID?, Unreadable> {
        guard let value, !value.isNull else { return .success(nil) }
        if let text = value.stringValue { return .success(.string(text)) }
        guard let number = value.intValue else { return .failure(Unreadable(typeName: value.typeName)) }
        return .success(.int(number))
    }

    /// An `id` that is neither a string nor an integer.
    struct Unreadable: Error {
        let typeName: String
    }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// `let id: RequestID = 3`
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `let id: RequestID = "a"`
    public init(stringLiteral value: String) { self = .string(value) }
}
