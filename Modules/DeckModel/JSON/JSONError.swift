/// Why JSON was not accepted: not JSON at all, or JSON whose fields do not
/// make the expected value, with the path of the field concerned.
///
/// The path is built while the error unwinds (each level prepends its own key
/// or index), so decoding a large layout builds no path strings at all unless
/// something is wrong. Each user words the error its own way: the protocol as
/// an error reply, the snapshot store as a notice.
package struct JSONError: Error, Equatable, CustomStringConvertible {
    package enum Problem: Sendable, Equatable {
        /// Not JSON (RFC 8259): `reason` is the middle of a sentence, `offset`
        /// the 0-based byte where the parser gave up.
        case syntax(reason: String, offset: Int)
        /// A required field is absent (or `null`).
        case missing(expected: String)
        /// A field holds the wrong kind of value.
        case wrongType(expected: String, got: String)
        /// The value has the wrong shape in a way the types do not show (a page
        /// of the wrong size); the sentence says which.
        case malformed(String)
        /// The value is well-formed but breaks a rule of the model (an empty
        /// button name); the sentence says which.
        case invalid(String)
    }

    /// Field names and `[index]` parts, outermost first.
    package var path: [String]
    package var problem: Problem

    package init(path: [String] = [], _ problem: Problem) {
        self.path = path
        self.problem = problem
    }

    package static func syntax(_ reason: String, at offset: Int) -> JSONError {
        JSONError(.syntax(reason: reason, offset: offset))
    }

    package static func missing(_ key: String, expected: String) -> JSONError {
        JSONError(path: [key], .missing(expected: expected))
    }

    package static func wrongType(expected: String, got: String) -> JSONError {
        JSONError(.wrongType(expected: expected, got: got))
    }

    package static func invalid(_ sentence: String) -> JSONError {
        JSONError(.invalid(sentence))
    }

    package static func malformed(_ sentence: String) -> JSONError {
        JSONError(.malformed(sentence))
    }

    /// The same error one level further out: a key, or `[index]`.
    package func inside(_ component: String) -> JSONError {
        JSONError(path: [component] + path, problem)
    }

    /// `button.action.run`, `layout.pages[3].buttons[5]`.
    package var dottedPath: String {
        var text = ""
        for component in path {
            if !text.isEmpty && !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }

    /// A sentence naming the field: `'button.action.run' must be a string, not a number`.
    package var description: String {
        let field = dottedPath
        switch problem {
        case let .syntax(reason, offset):
            return "byte \(offset): \(reason)"
        case .missing(let expected):
            return "'\(field)' is missing; it must be \(expected)"
        case let .wrongType(expected, got):
            return field.isEmpty ? "expected \(expected), not \(got)" : "'\(field)' must be \(expected), not \(got)"
        case .malformed(let sentence), .invalid(let sentence):
            return field.isEmpty ? sentence : "\(sentence) (at '\(field)')"
        }
    }
}
