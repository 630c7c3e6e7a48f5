import DeckModel
import DeckProfiles

/// Checks plugin buttons' settings against what their plugins' manifests
/// declare (docs/plugins.md, "Settings declarations"): for `deckctl check
/// --plugins` and for the host's load and reload, which report these
/// problems but still load the profile (a mistyped chord breaks one button,
/// not the deck), as they treat a button of a plugin that is not installed.
extension PluginCatalog {
    /// Every problem of `sites` whose plugin is installed and whose command
    /// declares its settings; other buttons are not checked (a plugin not
    /// installed, a command the manifest does not list or lists without
    /// `settings:`, hands its settings on as they are).
    package func settingsProblems(_ sites: [SettingsSite]) -> [FileProblem] {
        var problems: [FileProblem] = []
        for site in sites {
            guard let manifest = manifest(id: site.plugin),
                  let command = manifest.commands.first(where: { $0.name == site.command }),
                  let declared = command.settings else { continue }
            problems += SettingsCheck(site: site, declared: declared, owner: "\(site.plugin) \(site.command)").problems()
        }
        return Array(Set(problems)).sorted()
    }

    /// What `deckctl check --plugins` finds in one checked file beyond
    /// ``ProfileCheck/check(paths:maxLayoutBytes:)``'s own problems: its
    /// plugin buttons' settings against what these manifests declare, and
    /// the problems of the manifest of a plugin it uses that could not be
    /// read. Those two together are `deckctl check --plugins` without the
    /// printing.
    public func settingsProblems(of checked: ProfileCheck.Result) -> [FileProblem] {
        var problems = settingsProblems(checked.settingsSites)
        for id in Set(checked.settingsSites.map(\.plugin)).sorted() {
            guard let broken = unavailability(id: id) else { continue }
            problems += self.problems.filter { $0.file == broken.file }
        }
        return problems
    }

    /// ``settingsProblems(_:)`` of every file of a layouts folder scan.
    package func settingsProblems(in catalog: ProfileCatalog) -> [FileProblem] {
        settingsProblems(catalog.files.flatMap(\.settingsSites))
    }
}

/// One button's settings against its command's declarations.
struct SettingsCheck {
    let site: SettingsSite
    let declared: [String: SettingDeclaration]
    /// `keys press`, for messages.
    let owner: String

    func problems() -> [FileProblem] {
        var problems: [FileProblem] = []
        let names = declared.keys.sorted()
        var given: Set<String> = []
        for entry in site.entries {
            guard let declaration = declared[entry.key] else {
                let expected = names.isEmpty ? "it takes no settings" : "expected \(names.joined(separator: ", "))"
                let hint = KeySuggestion.closest(to: entry.key, among: names).map { "; did you mean '\($0)'?" } ?? ""
                problems.append(site.problem("unknown setting '\(entry.key)' of \(owner) (\(expected))\(hint)", at: entry.keyMark))
                continue
            }
            if entry.value != .null { given.insert(entry.key) }
            problems += check(entry, declaration)
        }
        for name in names where declared[name]?.required == true && !given.contains(name) {
            problems.append(site.problem("\(owner) needs the setting '\(name)' (settings: {\(name): …})", at: site.settingsMark))
        }
        return problems
    }

    private func check(_ entry: SettingsSite.Entry, _ declaration: SettingDeclaration) -> [FileProblem] {
        func problem(_ message: String) -> [FileProblem] {
            [site.problem("setting '\(entry.key)' of \(owner) \(message)", at: entry.valueMark)]
        }
        let value = entry.value
        if value == .null { return [] }
        switch declaration.kind {
        case .any:
            return []
        case .bool:
            guard case .bool = value else { return problem("must be true or false, not \(Self.shown(value))") }
            return []
        case .string(let maxLength):
            guard case .string(let text) = value else { return problem("must be text, not \(Self.shown(value))\(Self.quoteHint(value))") }
            return Self.tooLong(text, maxLength).map(problem) ?? []
        case let .int(low, high):
            guard case .int(let number) = value else { return problem("must be a whole number, not \(Self.shown(value))") }
            return Self.outside(Double(number), low.map(Double.init), high.map(Double.init), Self.number(low), Self.number(high))
                .map(problem) ?? []
        case let .number(low, high):
            let number: Double
            switch value {
            case .int(let whole): number = Double(whole)
            case .double(let real): number = real
            default: return problem("must be a number, not \(Self.shown(value))")
            }
            return Self.outside(number, low, high, low.map { "\($0)" }, high.map { "\($0)" }).map(problem) ?? []
        case .choice(let values):
            guard case .string(let text) = value, values.contains(text) else {
                let written = if case .string(let text) = value { "'\(text)'" } else { Self.shown(value) }
                let hint = KeySuggestion.closest(to: written.trimmingQuotes, among: values).map { "; did you mean '\($0)'?" } ?? ""
                return problem("must be one of \(values.joined(separator: ", ")), not \(written)\(hint)")
            }
            return []
        case let .words(list, maxLength):
            guard case .string(let text) = value else { return problem("must be text, not \(Self.shown(value))\(Self.quoteHint(value))") }
            if let long = Self.tooLong(text, maxLength) { return problem(long) }
            return unknownWords(text, list, entry)
        }
    }

    /// An unknown word at its own column when the text maps onto the file
    /// character by character, else at the value.
    private func unknownWords(_ text: String, _ list: WordList, _ entry: SettingsSite.Entry) -> [FileProblem] {
        let files = list.files.joined(separator: ", ")
        return list.split(text).filter { !list.contains($0.word) }.map { word, offset in
            let mark = entry.textStart.map { YAMLMark(line: $0.line, column: $0.column + offset) } ?? entry.valueMark
            let hint = KeySuggestion.closest(to: String(word), among: list.spelled).map { "; did you mean '\($0)'?" } ?? ""
            return site.problem("unknown name '\(word)' in setting '\(entry.key)' of \(owner)\(hint) (the names are those of "
                                + "\(files) in the plugin's folder)", at: mark)
        }
    }

    // MARK: Wording

    private static func tooLong(_ text: String, _ maxLength: Int?) -> String? {
        // Unicode scalars, as the plugins count them (and as file columns do).
        let count = text.unicodeScalars.count
        guard let maxLength, count > maxLength else { return nil }
        return "is \(count) characters long, more than the \(maxLength) it may hold"
    }

    private static func outside(_ number: Double, _ low: Double?, _ high: Double?, _ lowText: String?, _ highText: String?) -> String? {
        if let low, number < low { return "must be at least \(lowText ?? "\(low)"), not \(shownNumber(number))" }
        if let high, number > high { return "must be at most \(highText ?? "\(high)"), not \(shownNumber(number))" }
        return nil
    }

    private static func number(_ value: Int?) -> String? { value.map { "\($0)" } }

    private static func shownNumber(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
    }

    /// How a value reads in a message: "'maybe'", "the number 42", "a list".
    static func shown(_ value: DeckValue) -> String {
        switch value {
        case .null: "nothing"
        case .bool(let flag): "\(flag)"
        case .int(let number): "the number \(number)"
        case .double(let number): "the number \(number)"
        case .string(let text): "'\(text)'"
        case .array: "a list"
        case .object: "a mapping"
        }
    }

    /// YAML reads `42`, `yes` and `1.5` as numbers and booleans: quoting keeps them text.
    private static func quoteHint(_ value: DeckValue) -> String {
        switch value {
        case .bool, .int, .double: " (quote it to make it text)"
        default: ""
        }
    }
}

extension String {
    /// Without the single quotes ``SettingsCheck/shown(_:)`` puts around text.
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
