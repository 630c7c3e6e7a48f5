/// A scalar's typed value under YAML 1.1 (what PyYAML's safe loader gives).
package enum YAMLScalar: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// Resolves scalar text: implicit typing for untagged plain scalars,
    /// strings for quoted and block ones, and the standard explicit tags.
    static func resolve(_ bytes: UnsafeBufferPointer<UInt8>, plain: Bool, tag: String?) -> Result<YAMLScalar, YAMLScalarError> {
        let text = { String(decoding: bytes, as: UTF8.self) }
        switch tag {
        case nil:
            guard plain else { return .success(.string(text())) }
            switch YAML11.classify(bytes) {
            case .null: return .success(.null)
            case .bool(let value): return .success(.bool(value))
            case .int: return YAML11.integer(bytes).map { YAMLScalar.int($0) }
            case .float: return YAML11.float(bytes).map { .success(.double($0)) } ?? .failure(.invalidNumber(text()))
            case .timestamp, .merge, .value, .string: return .success(.string(text()))
            }
        case "!", YAML11.tagPrefix + "str":
            return .success(.string(text()))
        case YAML11.tagPrefix + "null":
            return .success(.null)
        case YAML11.tagPrefix + "bool":
            if case .bool(let value) = YAML11.classify(bytes) { return .success(.bool(value)) }
            return .failure(.tagMismatch(tag: "!!bool", text: text()))
        case YAML11.tagPrefix + "int":
            guard case .int = YAML11.classify(bytes) else { return .failure(.tagMismatch(tag: "!!int", text: text())) }
            return YAML11.integer(bytes).map { YAMLScalar.int($0) }
        case YAML11.tagPrefix + "float":
            switch YAML11.classify(bytes) {
            case .int: return YAML11.integer(bytes).map { YAMLScalar.double(Double($0)) }
            case .float: return YAML11.float(bytes).map { .success(.double($0)) } ?? .failure(.invalidNumber(text()))
            default: return .failure(.tagMismatch(tag: "!!float", text: text()))
            }
        case let tag?:
            return .failure(.unsupportedTag(YAML11.shortTag(tag)))
        }
    }
}

/// Why a scalar has no value of the kind asked for.
package enum YAMLScalarError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A sequence or mapping where a scalar was expected.
    case notScalar
    /// Looks like a number under YAML 1.1 but cannot be read as one (`0b_`, `._`).
    case invalidNumber(String)
    /// An integer outside the 64-bit range.
    case numberTooLarge(String)
    /// An explicit tag this reader does not support (`!!binary`, `!custom`).
    case unsupportedTag(String)
    /// An explicit `!!int`, `!!float` or `!!bool` on text that is not one.
    case tagMismatch(tag: String, text: String)

    /// A sentence for a problem report.
    package var description: String {
        switch self {
        case .notScalar: "expected a single value"
        case .invalidNumber(let text): "'\(text)' is not a valid number"
        case .numberTooLarge(let text): "the number \(text) is too large"
        case .unsupportedTag(let tag): "the tag \(tag) is not supported here"
        case let .tagMismatch(tag, text): "'\(text)' is not a valid \(tag) value"
        }
    }
}

extension YAMLScalar {
    /// What `text` means written as a plain (unquoted) YAML 1.1 scalar, as
    /// plugin settings in a profile are typed: `2` an integer, `yes` true,
    /// `~` null, `1.5` a float, anything else a string. For `deckctl set
    /// --setting K=V`, so that a setting means the same on the command line
    /// as in a file.
    package static func plain(_ text: String) -> Result<YAMLScalar, YAMLScalarError> {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { resolve($0, plain: true, tag: nil) }
    }
}
