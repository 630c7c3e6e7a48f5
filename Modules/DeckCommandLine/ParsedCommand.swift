/// A command line the parser accepted: which command, and its values. Every
/// value was already read as its declared type, so the typed accessors
/// below only fail for things the command line did not give.
public struct ParsedCommand: Sendable {
    /// The commands from the root on: `["deckctl", "set"]`.
    public let path: [String]
    /// The command that runs (the last of ``path``).
    public let command: CommandSpec
    let optionValues: [String: [String]]
    let argumentValues: [String: [String]]

    init(path: [String], command: CommandSpec, optionValues: [String: [String]], argumentValues: [String: [String]]) {
        self.path = path
        self.command = command
        self.optionValues = optionValues
        self.argumentValues = argumentValues
    }

    /// True when the flag was given.
    public subscript(flag: Flag) -> Bool { optionValues[flag.spec.name] != nil }

    /// The option's value (the last one, for a repeatable option), or nil when not given.
    public subscript<Value>(option: Option<Value>) -> Value? {
        optionValues[option.spec.name]?.last.flatMap(Value.init(argument:))
    }

    /// Every value of a repeatable option, in command-line order.
    public func all<Value>(_ option: Option<Value>) -> [Value] {
        (optionValues[option.spec.name] ?? []).compactMap(Value.init(argument:))
    }

    /// The argument's value, or nil when an optional argument was left out.
    public subscript<Value>(argument: Argument<Value>) -> Value? {
        argumentValues[argument.spec.name]?.first.flatMap(Value.init(argument:))
    }

    /// Every value of a variadic argument, in order.
    public func all<Value>(_ argument: Argument<Value>) -> [Value] {
        (argumentValues[argument.spec.name] ?? []).compactMap(Value.init(argument:))
    }

    /// The value of an argument the command requires. Throws only if the
    /// argument is not part of this command's declaration (a programming
    /// mistake, reported as a usage error rather than a trap).
    public func required<Value>(_ argument: Argument<Value>) throws(CommandLineError) -> Value {
        guard let value = self[argument] else { throw error("\(command.name) needs \(argument.spec.name)") }
        return value
    }

    /// True when the option with this long name was given (any type).
    public func isGiven(_ name: String) -> Bool { optionValues[name] != nil }

    /// A usage error of this command, for checks the declaration cannot
    /// express ("--timeout must be more than 0").
    public func error(_ problem: String, suggestion: String? = nil) -> CommandLineError {
        CommandLineError(problem, suggestion: suggestion, command: path)
    }
}
