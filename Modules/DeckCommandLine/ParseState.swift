/// The parser's work in progress: the command chain chosen so far, the
/// values seen, and the rules checked once the line is read.
struct ParseState {
    var chain: [CommandSpec]
    var optionsEnded = false
    private var values: [String: [String]] = [:]
    private var positionals: [String] = []

    init(root: CommandSpec) {
        chain = [root]
    }

    private var leaf: CommandSpec { chain[chain.count - 1] }
    private var path: [String] { chain.map(\.name) }

    private func error(_ problem: String, suggestion: String? = nil) -> CommandLineError {
        CommandLineError(problem, suggestion: suggestion, command: path)
    }

    // MARK: Tokens

    mutating func longOption(_ token: String, next: String?, consumed index: inout Int) throws(CommandLineError) {
        let body = token.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let option = CommandLineParser.lookup(name, in: chain) else { throw unknownOption("--" + name) }
        if option.isFlag {
            if inline != nil { throw error("\(option.longForm) takes no value") }
            try store(option, value: "")
        } else if let inline {
            try store(option, value: inline)
        } else {
            try store(option, value: try value(for: option, written: option.longForm, next: next, consumed: &index))
        }
    }

    mutating func shortOption(_ token: String, next: String?, consumed index: inout Int) throws(CommandLineError) {
        let letter = token.dropFirst().first
        guard let option = chain.reversed().lazy.flatMap(\.options).first(where: { $0.short == letter }) else {
            throw unknownOption(token)
        }
        // `-oFILE`, and `-o=FILE` as people often write it.
        var attached = String(token.dropFirst(2))
        if attached.hasPrefix("=") { attached.removeFirst() }
        if option.isFlag {
            guard token.count == 2 else { throw unknownOption(token) }
            try store(option, value: "")
        } else if !attached.isEmpty {
            try store(option, value: attached)
        } else {
            try store(option, value: try value(for: option, written: "-" + String(token.dropFirst().prefix(1)), next: next, consumed: &index))
        }
    }

    mutating func positional(_ token: String) throws(CommandLineError) {
        guard !leaf.subcommands.isEmpty else {
            positionals.append(token)
            return
        }
        guard let command = leaf.subcommand(named: token) else { throw Self.unknownCommand(token, in: chain) }
        chain.append(command)
    }

    private func value(for option: OptionSpec, written: String, next: String?, consumed index: inout Int) throws(CommandLineError) -> String {
        let placeholder = option.valueName ?? "VALUE"
        guard let next else { throw error("\(written) needs a value: \(written) \(placeholder)") }
        if CommandLineParser.looksLikeOption(next) {
            throw error("\(written) needs a value: \(written) \(placeholder) (write \(option.longForm)=\(next) "
                        + "if the value really starts with '-')")
        }
        index += 1
        return next
    }

    private mutating func store(_ option: OptionSpec, value: String) throws(CommandLineError) {
        if !option.isFlag {
            if values[option.name] != nil && !option.isRepeatable {
                guard chain[0].repeatedOptions == .lastWins else { throw error("\(option.longForm) is given twice; give it once") }
                values[option.name] = []
            }
            if let problem = option.check(value) { throw error("\(option.longForm) \(problem)\(Self.not(value))") }
        }
        if chain[0].repeatedOptions == .lastWins {
            // The later choice of a group replaces an earlier one, as a later
            // value replaces an earlier one (`deckd $DEFAULTS --no-tcp`).
            for command in chain {
                for other in command.group(of: option.name)?.names ?? [] where other != option.name {
                    values[other] = nil
                }
            }
        }
        values[option.name, default: []].append(value)
    }

    // MARK: Errors with suggestions

    /// `, not 'x'` after a refused value; nothing for an empty one.
    private static func not(_ value: String) -> String {
        value.isEmpty ? "" : ", not '\(value)'"
    }

    private func unknownOption(_ written: String) -> CommandLineError {
        let typed = String(written.drop { $0 == "-" }.prefix { $0 != "=" })
        // An option of a subcommand given before the command's name.
        if chain.count == 1, let owner = leaf.subcommands.first(where: { $0.option(named: typed) != nil && !$0.isHidden }) {
            return error("--\(typed) is an option of \(owner.name) and goes after it",
                         suggestion: "\(leaf.name) \(owner.name) --\(typed)")
        }
        let visible = chain.flatMap(\.options).filter { !$0.isHidden }
        let suggestion = Suggestion.closest(to: typed, among: visible.map(\.name)).map { "--" + $0 }
        let problem = chain.count == 1 ? "unknown option '\(written)'" : "\(leaf.name) has no option '\(written)'"
        return error(problem, suggestion: suggestion)
    }

    static func unknownCommand(_ token: String, in chain: [CommandSpec]) -> CommandLineError {
        let names = chain[chain.count - 1].subcommands.filter { !$0.isHidden }.map(\.name)
        return CommandLineError("unknown command '\(token)'", suggestion: Suggestion.closest(to: token, among: names),
                                command: chain.map(\.name))
    }

    // MARK: The rules checked at the end

    mutating func finish() throws(CommandLineError) -> ParsedCommand {
        if !leaf.subcommands.isEmpty {
            if chain.count == 1 { throw error("no command given") }
            let names = leaf.subcommands.filter { !$0.isHidden }.map(\.name)
            throw error("\(leaf.name) needs a command: \(Wording.alternatives(names))")
        }
        let arguments = try assignArguments()
        for command in chain { try checkOptionRules(of: command) }
        return ParsedCommand(path: path, command: leaf, optionValues: values, argumentValues: arguments)
    }

    private func assignArguments() throws(CommandLineError) -> [String: [String]] {
        var assigned: [String: [String]] = [:]
        var remaining = positionals[...]
        var missing: [String] = []
        for argument in leaf.arguments {
            let taken: [String]
            switch argument.arity {
            case .one, .optional: taken = remaining.popFirst().map { [$0] } ?? []
            case .oneOrMore, .zeroOrMore: taken = Array(remaining); remaining = []
            }
            if taken.isEmpty && !argument.arity.isOptional {
                missing.append(argument.arity == .oneOrMore ? "at least one \(argument.name)" : argument.name)
            }
            for text in taken {
                if let problem = argument.check(text) { throw error("\(argument.name) \(problem)\(Self.not(text))") }
            }
            if !taken.isEmpty { assigned[argument.name] = taken }
        }
        if !missing.isEmpty { throw error("\(leaf.name) needs \(Wording.alternatives(missing, joiner: "and"))") }
        if let extra = remaining.first {
            if leaf.arguments.isEmpty { throw error("\(leaf.name) takes no arguments, so '\(extra)' is one too many") }
            let expected = leaf.arguments.map(\.synopsis).joined(separator: " ")
            throw error("\(leaf.name) takes \(expected), so '\(extra)' is one argument too many")
        }
        return assigned
    }

    private func checkOptionRules(of command: CommandSpec) throws(CommandLineError) {
        for option in command.options where option.isRequired && values[option.name] == nil {
            throw error("\(leaf.name) needs \(option.synopsis)")
        }
        for group in command.groups {
            let given = group.names.filter { values[$0] != nil }.map { "--" + $0 }
            if given.count > 1 {
                throw error("give only one of \(Wording.alternatives(given, joiner: "and")) (\(group.meaning))")
            }
            if given.isEmpty && group.isRequired {
                let all = group.names.map { "--" + $0 }
                throw error("\(leaf.name) needs one of \(Wording.alternatives(all)) (\(group.meaning))")
            }
        }
        for option in command.options where values[option.name] != nil {
            if let owner = option.onlyWith, values[owner] == nil {
                throw error("\(option.longForm) only goes with --\(owner); give --\(owner) too or leave \(option.longForm) out")
            }
            for needed in option.needs where values[needed] == nil {
                let form = command.option(named: needed)?.synopsis ?? "--" + needed
                throw error("\(option.longForm) needs \(form) as well")
            }
        }
    }
}
