import DeckCommandLine

/// A small tool declared the way deckd and deckctl declare theirs, with one
/// of everything the parser knows.
enum SampleTool {
    enum Level: String, ArgumentChoice { case debug, info, warning, error }

    static let control = Option<String>("control", value: "PATH", help: "the control socket", completion: .file)
    static let json = Flag("json", help: "print JSON")
    static let verbose = Flag("verbose", short: "v", help: "say more", hidden: true)

    static let page = Argument<Int>("PAGE", help: "the page, 0-based", validate: { $0 >= 0 ? nil : "must be 0 or more" })
    static let index = Argument<Int>("INDEX", help: "the slot, 0-based")
    static let name = Option<String>("name", value: "N", help: "the label", required: true)
    static let icon = Option<String>("icon", value: "I", help: "an icon")
    static let run = Option<String>("run", value: "CMD", help: "a shell command")
    static let cwd = Option<String>("cwd", value: "D", help: "where it runs", completion: .directory, onlyWith: "run")
    static let timeout = Option<Double>("timeout", value: "S", help: "seconds", onlyWith: "run",
                                        validate: { $0 > 0 ? nil : "must be more than 0 seconds" })
    static let open = Option<String>("open", value: "X", help: "a URL")
    static let plugin = Option<String>("plugin", value: "ID", help: "a plugin", needs: ["command"])
    static let command = Option<String>("command", value: "C", help: "its command", onlyWith: "plugin")
    static let setting = Option<String>("setting", value: "K=V", help: "a setting", repeatable: true, onlyWith: "plugin")

    static let set = CommandSpec(
        "set", summary: "puts a button in a slot",
        arguments: [page, index],
        options: [name, icon, run, cwd, timeout, open, plugin, command, setting],
        groups: [OptionGroup(["run", "open", "plugin"], required: true, meaning: "what the button does")],
        examples: [Example("tool set 0 1 --name Mail --open mailto:a@b.c", "a button that writes mail")])

    static let down = Flag("down", help: "finger down")
    static let up = Flag("up", help: "finger up")
    static let press = CommandSpec("press", summary: "runs a button", arguments: [page, index], options: [down, up],
                                   groups: [OptionGroup(["down", "up"], meaning: "which edge of the press")])

    static let files = Argument<String>("FILE", help: "files to check", arity: .oneOrMore, completion: .file)
    static let check = CommandSpec("check", summary: "checks files", arguments: [files])

    static let showPage = Argument<Int>("PAGE", help: "one page", arity: .optional,
                                        validate: { $0 >= 0 ? nil : "must be 0 or more" })
    static let columns = Option<Int>("columns", value: "N", help: "columns", validate: { (1...8).contains($0) ? nil : "must be from 1 to 8" })
    static let show = CommandSpec("show", summary: "draws the layout", arguments: [showPage], options: [columns])

    static let output = Option<String>("output", short: "o", value: "FILE", help: "where to write", completion: .file)
    static let profile = Option<String>("profile", value: "P", help: "which profile", completion: .tool(["profiles", "--names"]))
    static let export = CommandSpec("export", summary: "writes YAML", options: [profile, output])

    static let level = Option<Level>("level", value: "LEVEL", help: "how much to log")
    static let status = CommandSpec("status", summary: "says how things are", options: [level])

    static let shell = Argument<String>("SHELL", help: "the shell", completion: .words(["bash"]))
    static let bash = CommandSpec("bash", summary: "bash")
    static let completion = CommandSpec("completion", summary: "prints a completion script", subcommands: [bash])
    static let secret = CommandSpec("secret", summary: "not for people", hidden: true)

    static let root = CommandSpec(
        "tool", summary: "a sample tool", options: [control, json, verbose],
        subcommands: [status, show, set, press, check, export, completion, secret],
        notes: [("exit status", "0 done, 2 usage")])

    static let parser = CommandLineParser(root)

    /// Parses and expects a command to run.
    static func run(_ arguments: [String]) throws -> ParsedCommand {
        switch try parser.parse(arguments) {
        case .run(let parsed): return parsed
        case .help(let path): throw UnexpectedHelp(path: path.map(\.name))
        }
    }

    /// The usage error for `arguments`, or nil when they parse.
    static func failure(_ arguments: [String]) -> CommandLineError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    struct UnexpectedHelp: Error { let path: [String] }
}
