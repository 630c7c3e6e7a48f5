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
        switch value {
        case nil, .null?:
            return .success(nil)
        case .string(let text)?:
            return .success(.string(text))
        case let other?:
            guard let number = other.intValue else { return .failure(Unreadable(typeName: other.typeName)) }
            return .success(.int(number))
        }
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
