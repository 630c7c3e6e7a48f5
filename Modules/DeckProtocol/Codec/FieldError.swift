/// A failure inside a message, with the path of the field it concerns.
///
/// The path is built while the error unwinds (each level prepends its own
/// key or index), so decoding a large layout builds no path strings at all
/// unless something is wrong.
struct FieldError: Error {
    enum Problem {
        /// A required field is absent (or `null`).
        case missing(expected: String)
        /// A field holds the wrong kind of value.
        case wrongType(expected: String, got: String)
        /// The value is well-typed but breaks a rule; the sentence says which.
        case broken(ErrorCode, String)
    }

    /// Field names and `[index]` parts, outermost first.
    var path: [String]
    var problem: Problem

    static func missing(_ key: String, expected: String) -> FieldError {
        FieldError(path: [key], problem: .missing(expected: expected))
    }

    static func wrongType(expected: String, got: String) -> FieldError {
        FieldError(path: [], problem: .wrongType(expected: expected, got: got))
    }

    static func invalid(_ sentence: String) -> FieldError {
        FieldError(path: [], problem: .broken(.invalid, sentence))
    }

    static func malformed(_ sentence: String) -> FieldError {
        FieldError(path: [], problem: .broken(.malformed, sentence))
    }

    /// The same error one level further out.
    func inside(_ component: String) -> FieldError {
        FieldError(path: [component] + path, problem: problem)
    }

    /// `invalid` for rule breaks, `malformed` for everything about shape and type.
    var code: ErrorCode {
        if case .broken(let code, _) = problem { code } else { .malformed }
    }

    /// `button.action.run`, `layout.pages[3].buttons[5]`.
    var dottedPath: String {
        var text = ""
        for component in path {
            if !text.isEmpty && !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }

    var sentence: String {
        let field = dottedPath
        switch problem {
        case .missing(let expected):
            return "'\(field)' is missing; it must be \(expected)"
        case .wrongType(let expected, let got):
            return field.isEmpty ? "expected \(expected), not \(got)" : "'\(field)' must be \(expected), not \(got)"
        case .broken(_, let sentence):
            return field.isEmpty ? sentence : "\(sentence) (at '\(field)')"
        }
    }

    /// The error as the protocol reports it, its sentence prefixed with the message type.
    func protocolError(in type: String, id: RequestID?) -> ProtocolError {
        ProtocolError(code, "\(type): \(sentence)", id: id)
    }
}
