/// A type that a value on the command line can be read as: the `Int` of
/// `PAGE`, the `String` of `--name N`, the choice of `--log-level`.
///
/// The parser reads every value while it parses, so a wrong one is a usage
/// error naming the argument ("PAGE must be a whole number, not 'x'") before
/// any command runs.
public protocol ArgumentValue: Sendable {
    /// Reads the value from its text; nil when the text is not one.
    init?(argument: String)
    /// What a valid value looks like, to finish the sentence "must be …":
    /// `a whole number`.
    static var expectation: String { get }
    /// The words a shell may complete the value to; empty for free text.
    static var completionWords: [String] { get }
}

extension ArgumentValue {
    /// Free text by default: nothing to complete.
    public static var completionWords: [String] { [] }
}

extension String: ArgumentValue {
    /// Any text is a string.
    public init?(argument: String) { self = argument }
    /// Never shown: every text is a valid string.
    public static var expectation: String { "text" }
}

extension Int: ArgumentValue {
    /// Decimal only, with an optional sign: `010` is ten (not eight, as C
    /// would read it), and `0x10`, `1_000` or ` 3` are refused rather than guessed.
    public init?(argument: String) {
        guard let value = Int(argument, radix: 10) else { return nil }
        self = value
    }
    /// "must be a whole number".
    public static var expectation: String { "a whole number" }
}

extension Double: ArgumentValue {
    /// A finite decimal number (`2.5`, `600`, `1e3`); `inf`, `nan` and hex
    /// floats are refused.
    public init?(argument: String) {
        let isDecimal = argument.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
        }
        guard isDecimal, let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    /// "must be a number".
    public static var expectation: String { "a number" }
}

/// A value from a fixed set of words, declared as a string enum:
///
/// ```swift
/// enum LogLevel: String, ArgumentChoice { case debug, info, warning, error }
/// ```
///
/// Its words appear in help, in messages ("must be debug, info, warning or
/// error, not 'loud'") and in shell completion.
public protocol ArgumentChoice: ArgumentValue, CaseIterable, RawRepresentable where RawValue == String {}

extension ArgumentChoice {
    /// The case whose raw value is the text.
    public init?(argument: String) { self.init(rawValue: argument) }
    /// "debug, info, warning or error".
    public static var expectation: String { Wording.alternatives(allCases.map(\.rawValue)) }
    /// Every case's raw value.
    public static var completionWords: [String] { allCases.map(\.rawValue) }
}

/// Small helpers for the sentences the parser writes.
package enum Wording {
    /// `a`, `a or b`, `a, b or c`.
    package static func alternatives(_ words: [String], joiner: String = "or") -> String {
        guard let last = words.last else { return "" }
        let head = words.dropLast()
        return head.isEmpty ? last : head.joined(separator: ", ") + " \(joiner) " + last
    }
}
