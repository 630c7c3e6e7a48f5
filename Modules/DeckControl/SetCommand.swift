import DeckCommandLine
import DeckModel
import DeckProfiles

/// `deckctl set`: its declaration, and the button its flags describe.
enum SetCommand {
    static let name = Option<String>("name", value: "N", help: "the button's label", required: true)
    static let icon = Option<String>("icon", value: "I", help: "an icon name or one emoji")
    static let run = Option<String>("run", value: "CMD", help: "run a shell command (/bin/sh -c CMD on the host)")
    static let cwd = Option<String>("cwd", value: "D", help: "the folder CMD runs in (~ is your home)",
                                    completion: .directory, onlyWith: "run")
    static let timeout = Option<Double>("timeout", value: "S", help: "seconds before CMD is stopped (default 60)",
                                        onlyWith: "run", validate: { $0 > 0 ? nil : "must be more than 0 seconds" })
    static let open = Option<String>("open", value: "X", help: "open a URL or a path with the desktop's opener")
    static let page = Option<PageChoice>("page", value: "P", help: "make the device show another page: next, previous or a page number",
                                         completion: .words(["next", "previous"]))
    static let profile = Option<String>("profile", value: "P", help: "switch the live layout to profile P",
                                        completion: DeckctlCommands.profileNames)
    static let plugin = Option<String>("plugin", value: "ID", help: "hand the press to the plugin ID", needs: ["command"])
    static let command = Option<String>("command", value: "C", help: "the plugin command to send", onlyWith: "plugin")
    static let setting = Option<String>(
        "setting", value: "K=V",
        help: "a plugin setting; V is typed as YAML types a plain value in a profile: 2 is a number, 1.5 a float, "
            + "yes or true a boolean, ~ null, anything else text; quote it ('\"2\"') for the text itself",
        repeatable: true, onlyWith: "plugin",
        validate: { $0.contains("=") && !$0.hasPrefix("=") ? nil : "must be KEY=VALUE" })

    static let spec = CommandSpec(
        "set", summary: "puts a button in a slot",
        discussion: """
            Puts a new button in PAGE/INDEX, replacing what is there. It needs a label (--name) and exactly one \
            thing to do: run a command, open something, show a page, switch profile, or send a plugin command.
            """,
        arguments: [DeckctlCommands.page, DeckctlCommands.index],
        options: [name, icon, run, cwd, timeout, open, page, profile, plugin, command, setting],
        groups: [OptionGroup(["run", "open", "page", "profile", "plugin"], required: true, meaning: "what the button does")],
        examples: [
            Example("deckctl set 0 3 --name Build --run make --cwd ~/src/app --timeout 600", "a build button"),
            Example("deckctl set 0 4 --name Mail --icon 📧 --open mailto:me@example.com", "open the mail program"),
            Example("deckctl set 0 11 --name 'Next page' --page next", "show the next page on the device"),
            Example("deckctl set 1 0 --name Stream --profile streaming", "switch to the streaming profile"),
            Example("deckctl set 1 1 --name Up --plugin audio --command vol --setting step=5",
                    "a plugin button with a setting (5 is read as a number)"),
        ])

    /// The button the parsed flags describe, checked as the host will check it.
    static func button(from parsed: ParsedCommand) throws(CommandLineError) -> DeckButton {
        let action: DeckAction
        if let command = parsed[run] {
            action = .run(command: command, cwd: parsed[cwd], timeout: parsed[timeout])
        } else if let target = parsed[open] {
            action = .open(target)
        } else if let target = parsed[page] {
            action = .page(target.target)
        } else if let name = parsed[profile] {
            action = .profile(name)
        } else if let id = parsed[plugin], let command = parsed[command] {
            action = .plugin(id: id, command: command, settings: try settings(parsed))
        } else {
            throw parsed.error("set needs one of --run, --open, --page, --profile or --plugin (what the button does)")
        }
        let iconText = parsed[icon]
        let button = DeckButton(name: parsed[name] ?? "", icon: iconText?.isEmpty == true ? nil : iconText, action: action)
        do {
            try button.validate()
        } catch {
            throw parsed.error(error.description)
        }
        return button
    }

    /// `--setting K=V …` as the plugin's settings; nil when none was given.
    static func settings(_ parsed: ParsedCommand) throws(CommandLineError) -> [String: DeckValue]? {
        let given = parsed.all(setting)
        guard !given.isEmpty else { return nil }
        var settings: [String: DeckValue] = [:]
        for item in given {
            guard let equals = item.firstIndex(of: "=") else { throw parsed.error("--setting must be KEY=VALUE, not '\(item)'") }
            let key = String(item[..<equals])
            guard settings[key] == nil else { throw parsed.error("--setting \(key) is given twice; give each setting once") }
            settings[key] = try value(String(item[item.index(after: equals)...]), key: key, parsed: parsed)
        }
        return settings
    }

    /// A setting's value: text in matching quotes is that text; otherwise
    /// YAML 1.1's plain-scalar typing, exactly as in a profile file.
    static func value(_ text: String, key: String, parsed: ParsedCommand) throws(CommandLineError) -> DeckValue {
        if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            return .string(String(text.dropFirst().dropLast()))
        }
        switch YAMLScalar.plain(text) {
        case .success(.null): return .null
        case .success(.bool(let value)): return .bool(value)
        case .success(.int(let value)): return .int(value)
        case .success(.double(let value)):
            guard value.isFinite else {
                throw parsed.error("--setting \(key)=\(text) is not a finite number, which JSON cannot carry; quote it for the text")
            }
            return .double(value)
        case .success(.string(let value)): return .string(value)
        case .failure(let problem): throw parsed.error("--setting \(key): \(problem)")
        }
    }
}

/// The value of `--page`: `next`, `previous`, or a page number from 0.
struct PageChoice: ArgumentValue {
    let target: PageTarget

    init?(argument: String) {
        switch argument {
        case "next": target = .next
        case "previous": target = .previous
        default:
            guard let number = Int(argument: argument), number >= 0 else { return nil }
            target = .number(number)
        }
    }

    static var expectation: String { "next, previous or a page number from 0" }
}
