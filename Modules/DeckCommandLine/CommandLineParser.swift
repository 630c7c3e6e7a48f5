/// Parses a command line against a ``CommandSpec``.
///
/// The rules, for every tool built on it:
/// - `--name VALUE` and `--name=VALUE`; `-o VALUE` and `-oVALUE`.
/// - A value that starts with `-` must be attached (`--run=-x`), so that a
///   forgotten value (`--name --run x`) is reported rather than swallowing
///   the next option. Negative numbers (`-1`) are values, not options.
/// - Options and positional arguments mix freely; the root's options are
///   global and are accepted before or after the command's name.
/// - `--` ends the options: everything after it is a positional argument.
/// - `-h`/`--help` anywhere before `--` asks for help on the command named
///   so far, even when the rest of the line is wrong; so does
///   `TOOL help COMMAND…`.
/// - A flag may be repeated; an option with a value given twice is an error
///   unless it is declared repeatable (which one should win is a guess).
public struct CommandLineParser: Sendable {
    /// The tool's declaration.
    public let root: CommandSpec

    /// A parser for the tool `root`.
    public init(_ root: CommandSpec) {
        self.root = root
    }

    /// What the command line asks for.
    public enum Outcome: Sendable {
        /// Run this command.
        case run(ParsedCommand)
        /// Print help for the last command of this path (root first).
        case help([CommandSpec])
    }

    /// Parses `arguments` (without the program's name). Throws a usage error
    /// naming the first thing to fix.
    public func parse(_ arguments: [String]) throws(CommandLineError) -> Outcome {
        if let path = try helpRequest(arguments) { return .help(path) }
        var state = ParseState(root: root)
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if state.optionsEnded {
                try state.positional(token)
            } else if token == "--" {
                state.optionsEnded = true
            } else if token.hasPrefix("--") {
                try state.longOption(token, next: arguments.indices.contains(index) ? arguments[index] : nil, consumed: &index)
            } else if Self.isShortOption(token) {
                try state.shortOption(token, next: arguments.indices.contains(index) ? arguments[index] : nil, consumed: &index)
            } else {
                try state.positional(token)
            }
        }
        return .run(try state.finish())
    }

    /// `-o`, `-oFILE`; not `-` alone (standard input, by convention) nor a negative number.
    static func isShortOption(_ token: String) -> Bool {
        token.hasPrefix("-") && token.count > 1 && !isNegativeNumber(token)
    }

    /// `-1`, `-2.5`: values, never options.
    static func isNegativeNumber(_ token: String) -> Bool {
        let body = token.utf8.dropFirst()
        return token.hasPrefix("-") && !body.isEmpty && body.first != UInt8(ascii: ".")
            && body.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }
            && body.filter({ $0 == UInt8(ascii: ".") }).count <= 1
    }

    /// True when a token after an option cannot be its value: it looks like an option itself.
    static func looksLikeOption(_ token: String) -> Bool {
        token.hasPrefix("-") && token != "-" && !isNegativeNumber(token)
    }

    /// The command path help was asked for, or nil. Lenient: it skips what
    /// it does not know, so `deckctl set --help` works without PAGE.
    private func helpRequest(_ arguments: [String]) throws(CommandLineError) -> [CommandSpec]? {
        var chain = [root]
        var wantsHelp = false
        var helpCommand = false
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if token == "--" { break }
            if token == "-h" || token == "--help" {
                wantsHelp = true
            } else if token.hasPrefix("--") {
                let name = String(token.dropFirst(2).prefix { $0 != "=" })
                if !token.contains("="), let option = Self.lookup(name, in: chain), !option.isFlag { index += 1 }
            } else if Self.isShortOption(token) {
                let letter = token.dropFirst().first
                if token.count == 2, let option = chain.reversed().lazy.flatMap(\.options).first(where: { $0.short == letter }),
                   !option.isFlag {
                    index += 1
                }
            } else if let leaf = chain.last, !leaf.subcommands.isEmpty {
                if let next = leaf.subcommand(named: token) {
                    chain.append(next)
                } else if token == "help" && chain.count == 1 && !helpCommand {
                    helpCommand = true
                } else if helpCommand {
                    throw ParseState.unknownCommand(token, in: chain)
                }
            }
        }
        return wantsHelp || helpCommand ? chain : nil
    }

    /// The option named `name` among a chain's options, nearest command first.
    static func lookup(_ name: String, in chain: [CommandSpec]) -> OptionSpec? {
        chain.reversed().lazy.compactMap { $0.option(named: name) }.first
    }
}
