/// Something a command declares as an option: a ``Flag``, an ``Option``, or
/// a plain ``OptionSpec``.
public protocol OptionDeclaration: Sendable {
    /// What the parser, help and completion read.
    var spec: OptionSpec { get }
}

/// Something a command declares as a positional argument.
public protocol ArgumentDeclaration: Sendable {
    /// What the parser, help and completion read.
    var spec: ArgumentSpec { get }
}

extension OptionSpec: OptionDeclaration {
    /// Itself.
    public var spec: OptionSpec { self }
}

extension ArgumentSpec: ArgumentDeclaration {
    /// Itself.
    public var spec: ArgumentSpec { self }
}

/// An option without a value (`--json`). Declare it once, list it in the
/// command, and ask the parsed command with `parsed[flag]`.
public struct Flag: OptionDeclaration {
    /// The option as the parser sees it.
    public let spec: OptionSpec

    /// A flag `--name` (and `-short`).
    public init(_ name: String, short: Character? = nil, help: String, hidden: Bool = false, onlyWith: String? = nil) {
        spec = OptionSpec(name: name, short: short, help: help, hidden: hidden, onlyWith: onlyWith)
    }
}

/// An option with a value of type `Value` (`--control PATH`, `--keep N`).
public struct Option<Value: ArgumentValue>: OptionDeclaration {
    /// The option as the parser sees it.
    public let spec: OptionSpec

    /// An option `--name VALUE`. `validate` returns nil for a good value, or
    /// for a bad one the rest of a sentence that starts with the option's
    /// name: `must be 1 or more` (the parser adds `, not '0'`).
    public init(_ name: String, short: Character? = nil, value valueName: String, help: String,
                repeatable: Bool = false, required: Bool = false, hidden: Bool = false,
                completion: CompletionKind? = nil, onlyWith: String? = nil, needs: [String] = [],
                validate: (@Sendable (Value) -> String?)? = nil) {
        spec = OptionSpec(name: name, short: short, valueName: valueName, help: help, repeatable: repeatable,
                          required: required, hidden: hidden,
                          completion: completion ?? Self.defaultCompletion, onlyWith: onlyWith, needs: needs,
                          check: Typed<Value>.checker(validate))
    }

    private static var defaultCompletion: CompletionKind {
        Value.completionWords.isEmpty ? .none : .words(Value.completionWords)
    }
}

/// A positional argument of type `Value` (`PAGE`, `FILE…`).
public struct Argument<Value: ArgumentValue>: ArgumentDeclaration {
    /// The argument as the parser sees it.
    public let spec: ArgumentSpec

    /// An argument named `name` (capitals, as help shows it).
    public init(_ name: String, help: String, arity: ArgumentSpec.Arity = .one, completion: CompletionKind? = nil,
                validate: (@Sendable (Value) -> String?)? = nil) {
        let words = Value.completionWords
        spec = ArgumentSpec(name: name, help: help, arity: arity,
                            completion: completion ?? (words.isEmpty ? .none : .words(words)),
                            check: Typed<Value>.checker(validate))
    }
}

/// Reading a typed value and running its own check, in one place for
/// options and arguments.
enum Typed<Value: ArgumentValue> {
    static func checker(_ validate: (@Sendable (Value) -> String?)?) -> @Sendable (String) -> String? {
        { text in
            guard let value = Value(argument: text) else { return "must be \(Value.expectation)" }
            return validate?(value)
        }
    }
}
