/// One command: its arguments, options and subcommands, and the words of its
/// help. The parser, the help text, the synopsis and the shell completion
/// are all made from this one declaration.
///
/// The tool itself is the root command: its options are global (accepted
/// before or after the subcommand's name) and its subcommands are the
/// commands (`deckctl status`). A command has either positional arguments
/// or subcommands, not both.
public struct CommandSpec: Sendable {
    /// The name typed on the command line (`set`), or the tool's name for the root.
    public var name: String
    /// One line for command lists, starting in lower case: `puts a button in a slot`.
    public var summary: String
    /// Paragraphs for the command's own help; the summary when empty.
    public var discussion: String
    /// Positional arguments, in order; only the last may be variadic or optional ones may follow required ones.
    public var arguments: [ArgumentSpec]
    /// Options, in the order help lists them.
    public var options: [OptionSpec]
    /// Options of which at most (or, when required, exactly) one may be given.
    public var groups: [OptionGroup]
    /// Commands under this one.
    public var subcommands: [CommandSpec]
    /// Examples for help.
    public var examples: [Example]
    /// Extra sections at the end of help (`exit status: …`), as titled paragraphs.
    public var notes: [(title: String, text: String)]
    /// Accepted, but left out of lists, help and completion.
    public var isHidden: Bool
    /// What an option with a value given twice means, for a tool's root
    /// command (the rule holds for all its commands).
    public var repeatedOptions: RepeatedOptions = .refused

    /// What an option with a value (not declared repeatable) given twice means.
    public enum RepeatedOptions: Hashable, Sendable {
        /// A usage error: which one should win would be a guess (deckctl).
        case refused
        /// The last one wins, as a daemon's wrapper script expects when it
        /// appends an option to a default command line (deckd).
        case lastWins
    }

    /// Declares a command.
    public init(_ name: String, summary: String, discussion: String = "",
                arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [],
                groups: [OptionGroup] = [], subcommands: [CommandSpec] = [], examples: [Example] = [],
                notes: [(title: String, text: String)] = [], hidden: Bool = false) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments.map(\.spec)
        self.options = options.map(\.spec)
        self.groups = groups
        self.subcommands = subcommands
        self.examples = examples
        self.notes = notes
        self.isHidden = hidden
    }

    /// The option with this long name, if the command declares it.
    public func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The subcommand with this name, if any.
    public func subcommand(named name: String) -> CommandSpec? { subcommands.first { $0.name == name } }

    /// The group an option belongs to, if any.
    func group(of name: String) -> OptionGroup? { groups.first { $0.names.contains(name) } }
}

extension CommandSpec {
    /// Mistakes in a declaration (and its subcommands): names given twice,
    /// references to options that do not exist, arguments in an order the
    /// parser cannot assign. Tests assert this is empty for every tool, so
    /// declarations are checked without any run-time trap.
    public var declarationProblems: [String] { problems(inheriting: []) }

    private func problems(inheriting inherited: [OptionSpec]) -> [String] {
        var found: [String] = []
        let visible = inherited + options
        var seen: Set<String> = ["help"]
        var shorts: Set<Character> = ["h"]
        for option in visible {
            if !seen.insert(option.name).inserted { found.append("\(name): option --\(option.name) is declared twice") }
            if let short = option.short, !shorts.insert(short).inserted { found.append("\(name): option -\(short) is declared twice") }
        }
        for option in options {
            for other in [option.onlyWith].compactMap({ $0 }) + option.needs where self.option(named: other) == nil {
                found.append("\(name): --\(option.name) refers to --\(other), which \(name) does not declare")
            }
        }
        for group in groups {
            for member in group.names where option(named: member) == nil {
                found.append("\(name): group '\(group.meaning)' names --\(member), which \(name) does not declare")
            }
        }
        if !arguments.isEmpty && !subcommands.isEmpty { found.append("\(name): a command has arguments or subcommands, not both") }
        for (position, argument) in arguments.enumerated() {
            let isLast = position == arguments.count - 1
            if argument.arity.isVariadic && !isLast { found.append("\(name): only the last argument may take several values") }
            if !argument.arity.isOptional, position > 0, arguments[position - 1].arity.isOptional {
                found.append("\(name): required argument \(argument.name) follows an optional one")
            }
        }
        var commandNames: Set<String> = []
        for subcommand in subcommands {
            if !commandNames.insert(subcommand.name).inserted { found.append("\(name): command \(subcommand.name) is declared twice") }
            found += subcommand.problems(inheriting: visible)
        }
        return found
    }
}
