import DeckProfiles
import Foundation

/// The `deckctl` command line (CLI.md). This build has `check`, which works
/// without a host; every other command says plainly that it is not available
/// yet and exits 2, rather than pretending to do something.
public enum Deckctl {
    /// Runs deckctl with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        var rest = arguments[...]
        var json = false
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            switch first {
            case "-h", "--help":
                console.out(help)
                return DeckctlExit.ok.rawValue
            case "--json":
                json = true
            case "--control":
                // Accepted now so scripts can pass it; only host commands use it.
                guard rest.popFirst() != nil else { return usage("--control needs a PATH (the host's control socket)", console) }
            case let option where option.hasPrefix("--control="):
                continue
            default:
                return usage("unknown option '\(first)'", console)
            }
        }
        guard let name = rest.popFirst() else { return usage("no command given", console) }
        guard let command = DeckctlCommand.named(name) else {
            return usage("unknown command '\(name)'", console)
        }
        if rest.contains("--help") || rest.contains("-h") {
            console.out(commandHelp(command))
            return DeckctlExit.ok.rawValue
        }
        guard command.available else {
            console.err("deckctl: '\(name)' is not available yet: this build of deckctl has only 'check'; "
                        + "the host commands arrive with the host daemon (deckd)")
            return DeckctlExit.usage.rawValue
        }
        return check(Array(rest), json: json, console: console)
    }

    /// `deckctl check FILE…`: every problem of every file, exit 65 if any.
    static func check(_ arguments: [String], json: Bool, console: Console) -> Int32 {
        var paths: [String] = []
        var optionsDone = false
        var json = json
        for argument in arguments {
            if !optionsDone && argument == "--" {
                optionsDone = true
            } else if !optionsDone && argument == "--json" {
                json = true
            } else if !optionsDone && argument.hasPrefix("-") && argument != "-" {
                return usage("check has no option '\(argument)'", console, command: "check")
            } else {
                paths.append(argument)
            }
        }
        guard !paths.isEmpty else { return usage("check needs at least one FILE", console, command: "check") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failed = false
        for result in ProfileCheck.check(paths: paths) {
            if result.problems.isEmpty {
                if !json { console.out("\(result.path): ok") }
                continue
            }
            failed = true
            for problem in result.problems {
                if json, let data = try? encoder.encode(problem) {
                    console.out(String(decoding: data, as: UTF8.self))
                } else {
                    console.out(problem.description)
                }
            }
        }
        return (failed ? DeckctlExit.problems : DeckctlExit.ok).rawValue
    }

    /// One sentence on stderr saying what is wrong and where to look; exit 2.
    static func usage(_ problem: String, _ console: Console, command: String? = nil) -> Int32 {
        let helpCommand = command.map { "deckctl \($0) --help" } ?? "deckctl --help"
        console.err("deckctl: \(problem); run '\(helpCommand)' for usage")
        return DeckctlExit.usage.rawValue
    }

    static let help: String = {
        let width = 12
        let commands = DeckctlCommand.all.map { command in
            let pad = String(repeating: " ", count: max(1, width - command.name.count))
            return "  " + command.name + pad + command.summary + (command.available ? "" : " (not available yet)")
        }
        return """
            usage: deckctl [--control PATH] [--json] COMMAND [ARGS]

            Controls the deck host (deckd) and checks profile files.
            This build has 'check' only; the other commands arrive with the host daemon.

            commands:
            \(commands.joined(separator: "\n"))

            options:
              --control PATH  the host's control socket
              --json          print results as JSON, one object per line
              -h, --help      show this help; 'deckctl COMMAND --help' for one command

            exit status: 0 done, 1 the host refused, 2 usage, 3 no host answering,
            65 check found problems
            """
    }()

    static func commandHelp(_ command: DeckctlCommand) -> String {
        guard command.available else {
            return "usage: deckctl \(command.synopsis)\n\n\(command.summary).\nNot available yet in this build of deckctl."
        }
        return """
            usage: deckctl check FILE…

            Checks profile files without a running host and prints every problem
            as FILE:LINE:COLUMN: message (with --json, one {"file","line","column","message"}
            object per line), or FILE: ok for a good file.

            exit status: 0 every file is good, 65 some file has a problem, 2 usage
            """
    }
}
