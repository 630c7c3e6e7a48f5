/// The one-line form of a command (`set PAGE INDEX --name N [--icon I] (…)`),
/// made from its declaration, as pieces that a line may break between.
public enum Synopsis {
    /// The pieces of the synopsis of the last command in `path` (root first):
    /// for the root, its options and `COMMAND [ARGS]`; for a command, its
    /// name, arguments and options, with groups as `(a | b)` (required) or
    /// `[a | b]`, and options that only go with another written right after it.
    public static func pieces(of path: [CommandSpec]) -> [String] {
        guard let command = path.last else { return [] }
        let names = path.map(\.name).joined(separator: " ")
        if path.count == 1 {
            // The tool itself: its (global) options come before the command.
            var pieces = [names] + optionPieces(of: command)
            if !command.subcommands.isEmpty { pieces += ["COMMAND", "[ARGS]"] }
            return pieces + command.arguments.map(\.synopsis)
        }
        return [names] + command.arguments.map(\.synopsis) + optionPieces(of: command)
    }

    /// Groups up to this long are never broken across lines.
    static let unbrokenGroup = 40

    /// The whole synopsis on one line.
    public static func line(of path: [CommandSpec]) -> String {
        pieces(of: path).joined(separator: " ")
    }

    private static func optionPieces(of command: CommandSpec) -> [String] {
        var pieces: [String] = []
        var groupsDone: Set<String> = []
        for option in command.options where !option.isHidden && option.onlyWith == nil {
            guard let group = command.group(of: option.name) else {
                pieces += fragment(option, in: command, optional: !option.isRequired)
                continue
            }
            guard groupsDone.insert(group.names.joined(separator: ",")).inserted else { continue }
            var alternatives: [String] = []
            for (position, name) in group.names.enumerated() {
                guard let member = command.option(named: name) else { continue }
                var parts = fragment(member, in: command, optional: false)
                if position > 0, !parts.isEmpty { parts[0] = "| " + parts[0] }
                alternatives += parts
            }
            guard !alternatives.isEmpty else { continue }
            let (open, close) = group.isRequired ? ("(", ")") : ("[", "]")
            alternatives[0] = open + alternatives[0]
            alternatives[alternatives.count - 1] += close
            // A short group stays on one line: [--listen HOST:PORT | --no-tcp].
            let whole = alternatives.joined(separator: " ")
            pieces += whole.count <= Self.unbrokenGroup ? [whole] : alternatives
        }
        return pieces
    }

    /// `--run CMD [--cwd D] [--timeout S]`: an option and the options that go
    /// only with it (bracketed unless it needs them), optionally bracketed whole.
    private static func fragment(_ option: OptionSpec, in command: CommandSpec, optional: Bool) -> [String] {
        let repeatMark = option.isRepeatable ? "…" : ""
        var pieces = [option.synopsis]
        for child in command.options where child.onlyWith == option.name && !child.isHidden {
            let mark = child.isRepeatable ? "…" : ""
            pieces.append(option.needs.contains(child.name) ? child.synopsis + mark : "[\(child.synopsis)]\(mark)")
        }
        if optional {
            pieces[0] = "[" + pieces[0]
            pieces[pieces.count - 1] += "]"
        }
        pieces[pieces.count - 1] += repeatMark
        return pieces
    }
}
