import DeckPluginKit
import DeckProfiles

/// Reads a parsed `plugin.yaml` into a ``PluginManifest``, collecting every
/// problem with its position (as profiles are checked), so a person fixes the
/// file in one pass.
struct ManifestReader {
    typealias Pair = (key: YAMLNode, value: YAMLNode)

    let document: YAMLDocument
    /// The plugin's folder, absolute (programs are resolved against it).
    let folder: String
    let searchPath: String?
    private(set) var problems: [FileProblem]
    /// The id, when it could be read (even if other keys are wrong).
    private(set) var id: String?
    private(set) var idMark: YAMLMark?

    init(document: YAMLDocument, folder: String, searchPath: String?) {
        self.document = document
        self.folder = absolutePath(folder)
        self.searchPath = searchPath
        problems = document.problems
    }

    private enum Key: String, CaseIterable {
        case id, name, version, `protocol`, exec, commands
    }

    private enum CommandKey: String, CaseIterable {
        case name, title, hold, settings
    }

    /// The manifest, or nil when there is any problem (then ``problems``
    /// holds all of them, sorted by position, without repeats).
    mutating func read() -> PluginManifest? {
        let manifest = readManifest()
        problems = FileProblem.listed(Array(Set(problems)).sorted())
        return problems.isEmpty ? manifest : nil
    }

    private mutating func readManifest() -> PluginManifest? {
        guard let root = document.root, !document.isNull(root) else {
            if problems.isEmpty,
               let problem = document.emptyDocumentProblem("the file is empty; a plugin manifest needs at least id: and exec:") {
                problems.append(problem)
            }
            return nil
        }
        guard root.kind == .mapping else {
            report("a plugin manifest must be a mapping with id, name, version, protocol, exec and commands, not \(root.kindDescription)",
                   at: root)
            return nil
        }
        let (fields, suggested) = self.fields(of: root, in: "plugin manifest", as: Key.self, extensions: true)
        let id = readID(fields[.id], owner: root, typo: suggested.contains(.id))
        let name = optionalText(fields[.name], "name")
        let version = optionalText(fields[.version], "version")
        let level = readProtocol(fields[.protocol])
        let exec = readExec(fields[.exec], owner: root, typo: suggested.contains(.exec))
        let commands = readCommands(fields[.commands])
        guard let id, let level, let exec, let commands else { return nil }
        return PluginManifest(id: id, name: name, version: version, protocolLevel: level, exec: exec.arguments,
                              executable: exec.program, commands: commands, folder: folder, file: document.file)
    }

    // MARK: Keys

    /// The pairs of `mapping` by key; reports keys that are unknown (worded
    /// as a profile's are, PROFILE.md §4), not plain names, or given twice.
    /// Keys starting with `x-` are ignored when `extensions` is true (a place
    /// for anchors, as in profiles). Returns the keys typos stand for too, so
    /// 'exce' is not followed by "needs exec" as well.
    mutating func fields<K: CaseIterable & RawRepresentable<String> & Hashable>(
        of mapping: YAMLNode, in context: String, as _: K.Type, extensions: Bool = false
    ) -> (found: [K: Pair], suggested: Set<K>) {
        var found: [K: Pair] = [:]
        var suggested: Set<K> = []
        let names = K.allCases.map(\.rawValue)
        for pair in document.pairs(mapping) {
            guard pair.key.kind == .scalar else {
                report("keys in a \(context) must be plain names, not \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            let text = document.text(pair.key)
            if let key = K(rawValue: text) {
                if let first = found[key] {
                    report("key '\(text)' is given twice (first at line \(first.key.mark.line))", at: pair.key)
                } else {
                    found[key] = pair
                }
                continue
            }
            if extensions && text.hasPrefix("x-") { continue }
            if let closest = KeySuggestion.closest(to: text, among: names), let key = K(rawValue: closest) {
                suggested.insert(key)
            }
            report("unknown key '\(text)' in \(context) (expected \(names.joined(separator: ", ")))", at: pair.key)
        }
        return (found, suggested)
    }

    // MARK: Fields

    private mutating func readID(_ pair: Pair?, owner: YAMLNode, typo: Bool) -> String? {
        let missing = "a plugin manifest needs id: (the name profiles use in {plugin: ID, command: …})"
        guard let id = requiredText(pair, "id", missing: missing, owner: owner, typo: typo), let node = pair?.value else {
            return nil
        }
        guard Self.isValidID(id) else {
            report("plugin id '\(id)' may only hold letters, digits, '.', '_' and '-', and must start with a letter or digit",
                   at: node)
            return nil
        }
        self.id = id
        idMark = node.mark
        return id
    }

    /// Letters, digits, `.`, `_`, `-`, starting with a letter or digit, at
    /// most 64: an id appears in log lines, status and profile files.
    static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard let first = bytes.first, isAlphanumeric(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private mutating func readProtocol(_ pair: Pair?) -> Int? {
        guard let pair, !document.isNull(pair.value) else { return PluginProtocol.level }
        let node = pair.value
        let level: Int? = switch document.scalar(node) {
        case .success(.int(let number)): number
        case .success(.string(let text)): Int(text)
        default: nil
        }
        guard let level, level >= 1 else {
            let shown = node.kind == .scalar ? "'\(document.text(node))'" : node.kindDescription
            report("protocol must be a whole number such as 1, not \(shown)", at: node)
            return nil
        }
        guard level == PluginProtocol.level else {
            report("this plugin speaks plugin protocol \(level), but this host speaks protocol \(PluginProtocol.level); update deckd",
                   at: node)
            return nil
        }
        return level
    }

    private mutating func readExec(_ pair: Pair?, owner: YAMLNode, typo: Bool) -> (arguments: [String], program: String)? {
        guard let pair, !document.isNull(pair.value) else {
            if !typo || pair != nil {
                report("a plugin manifest needs exec: (the program to start, as a list such as [./plugin])",
                       at: pair?.key ?? owner)
            }
            return nil
        }
        let node = pair.value
        guard node.kind == .sequence else {
            if node.kind == .scalar {
                let text = document.text(node)
                let hint = text.contains(" ") ? "one item per argument" : "write exec: [\(text)]"
                report("exec must be a list of the program and its arguments (argv form, no shell), not a string; \(hint)",
                       at: node)
            } else {
                report("exec must be a list of the program and its arguments, not \(node.kindDescription)", at: node)
            }
            return nil
        }
        var arguments: [String] = []
        var valid = true
        for item in document.items(node) {
            guard item.kind == .scalar, !document.isNull(item) else {
                report("exec items must be strings, not \(document.isNull(item) ? "nothing" : item.kindDescription)", at: item)
                valid = false
                continue
            }
            arguments.append(document.text(item))
        }
        guard valid else { return nil }
        guard let first = arguments.first else {
            report("exec needs at least the program to start, such as [./plugin]", at: node)
            return nil
        }
        let programNode = document.item(node, 0)
        guard !first.isEmpty else {
            report("the program in exec must not be empty", at: programNode)
            return nil
        }
        switch ProgramPath.resolve(first, folder: folder, searchPath: searchPath) {
        case .success(let program):
            return (arguments, program)
        case .failure(let problem):
            report(problem.sentence, at: programNode)
            return nil
        }
    }

    private mutating func readCommands(_ pair: Pair?) -> [PluginCommand]? {
        guard let pair, !document.isNull(pair.value) else { return [] }
        let node = pair.value
        guard node.kind == .sequence else {
            report("commands must be a list such as [{name: increment}], not \(node.kindDescription)", at: node)
            return nil
        }
        var commands: [PluginCommand] = []
        var firstLines: [String: Int] = [:]
        var valid = true
        for item in document.items(node) {
            guard let (command, mark) = readCommand(item) else {
                valid = false
                continue
            }
            if let line = firstLines[command.name] {
                report("command '\(command.name)' is listed twice (first at line \(line))", at: mark)
                valid = false
                continue
            }
            firstLines[command.name] = mark.line
            commands.append(command)
        }
        return valid ? commands : nil
    }

    /// One command: `{name: …, title: …}`, or a name alone.
    private mutating func readCommand(_ node: YAMLNode) -> (PluginCommand, YAMLMark)? {
        if node.kind == .scalar, !document.isNull(node) {
            let name = document.text(node)
            guard !name.isBlank else {
                report("a command name must not be empty", at: node)
                return nil
            }
            return (PluginCommand(name: name), node.mark)
        }
        guard node.kind == .mapping else {
            report("a command must be a mapping such as {name: increment}, not \(document.isNull(node) ? "nothing" : node.kindDescription)",
                   at: node)
            return nil
        }
        let (fields, suggested) = self.fields(of: node, in: "command", as: CommandKey.self)
        let title = optionalText(fields[.title], "title")
        let hold = optionalBool(fields[.hold], "hold")
        let settings = readDeclarations(fields[.settings])
        guard let name = requiredText(fields[.name], "name", missing: "command needs a name", owner: node,
                                      typo: suggested.contains(.name)),
              let nameNode = fields[.name]?.value, let hold, let settings else { return nil }
        return (PluginCommand(name: name, title: title, hold: hold, settings: settings.declared), nameNode.mark)
    }

    // MARK: Text

    mutating func report(_ message: String, at node: YAMLNode) {
        report(message, at: node.mark)
    }

    mutating func report(_ message: String, at mark: YAMLMark) {
        problems.append(document.problem(message, at: mark))
    }

    /// A required, non-blank string: `missing` at the owner when the key is
    /// absent (unless a typo was already suggested), at the key when null.
    private mutating func requiredText(_ pair: Pair?, _ field: String, missing: String, owner: YAMLNode, typo: Bool) -> String? {
        guard let pair else {
            if !typo { report(missing, at: owner) }
            return nil
        }
        if document.isNull(pair.value) {
            if !document.isPlaceholder(pair.value) { report(missing, at: pair.key) }
            return nil
        }
        guard let text = text(pair, field) else { return nil }
        guard !text.isBlank else {
            report("\(field) must not be empty", at: pair.value)
            return nil
        }
        return text
    }

    /// An optional YAML boolean (`true`, `false`, and YAML 1.1's `yes`/`no`…):
    /// false when absent or null, nil (reported) when anything else.
    mutating func optionalBool(_ pair: Pair?, _ field: String) -> Bool? {
        guard let pair, !document.isNull(pair.value) else { return false }
        if pair.value.kind == .scalar, case .success(.bool(let value)) = document.scalar(pair.value) { return value }
        let written = pair.value.kind == .scalar ? "'\(document.text(pair.value))'" : pair.value.kindDescription
        report("\(field) must be true or false, not \(written)", at: pair.value)
        return nil
    }

    /// An optional string; nil when absent, null, or not a string (reported).
    private mutating func optionalText(_ pair: Pair?, _ field: String) -> String? {
        guard let pair, !document.isNull(pair.value) else { return nil }
        return text(pair, field)
    }

    /// Any scalar's text as written (`version: 1.0` is "1.0"); a list or
    /// mapping is reported.
    private mutating func text(_ pair: Pair, _ field: String) -> String? {
        guard pair.value.kind == .scalar else {
            report("\(field) must be a string, not \(pair.value.kindDescription)", at: pair.value)
            return nil
        }
        return document.text(pair.value)
    }
}

extension String {
    /// Empty or only white space.
    var isBlank: Bool { unicodeScalars.allSatisfy(\.properties.isWhitespace) }
}
