import DeckProfiles

/// A command's `settings:` declarations (docs/plugins.md, "Settings declarations").
extension ManifestReader {
    /// The keys a declaration may have; which apply depends on `type`.
    private enum DeclarationKey: String, CaseIterable {
        case type, required, title, maxLength, min, max, values, names, separators, characters
    }

    private enum TypeName: String, CaseIterable {
        case string, int, number, bool, choice, words, any
    }

    /// The keys each type takes besides type, required and title.
    private static func allowed(_ type: TypeName) -> Set<DeclarationKey> {
        switch type {
        case .string: [.maxLength]
        case .int, .number: [.min, .max]
        case .choice: [.values]
        case .words: [.names, .separators, .characters, .maxLength]
        case .bool, .any: []
        }
    }

    /// What `settings:` declared: `declared` is nil when the key is absent.
    struct Declarations {
        var declared: [String: SettingDeclaration]?
    }

    /// The declarations of one command, or nil after reporting problems.
    mutating func readDeclarations(_ pair: Pair?) -> Declarations? {
        guard let pair, !document.isNull(pair.value) else { return Declarations(declared: nil) }
        let node = pair.value
        guard node.kind == .mapping else {
            report("settings must be a mapping from setting names to declarations such as {keys: {type: string}}, not "
                   + node.kindDescription, at: node)
            return nil
        }
        var declared: [String: SettingDeclaration] = [:]
        var firstLines: [String: Int] = [:]
        var valid = true
        for (key, value) in document.pairs(node) {
            guard key.kind == .scalar, !document.isNull(key) else {
                report("setting names must be plain names, not \(key.kindDescription)", at: key)
                valid = false
                continue
            }
            let name = document.text(key)
            if let line = firstLines[name] {
                report("setting '\(name)' is declared twice (first at line \(line))", at: key)
                valid = false
                continue
            }
            firstLines[name] = key.mark.line
            guard let declaration = readDeclaration(value, name: name) else {
                valid = false
                continue
            }
            declared[name] = declaration
        }
        return valid ? Declarations(declared: declared) : nil
    }

    private mutating func readDeclaration(_ node: YAMLNode, name: String) -> SettingDeclaration? {
        guard node.kind == .mapping else {
            let shown = document.isNull(node) ? "nothing" : node.kindDescription
            report("setting '\(name)' must be declared as a mapping such as {type: string}, not \(shown)", at: node)
            return nil
        }
        let (fields, suggested) = self.fields(of: node, in: "setting declaration", as: DeclarationKey.self)
        guard let typePair = fields[.type] else {
            if !suggested.contains(.type) {
                report("setting '\(name)' needs a type: (one of \(TypeName.allCases.map(\.rawValue).joined(separator: ", ")))",
                       at: node)
            }
            return nil
        }
        guard let type = readType(typePair.value) else { return nil }
        var valid = true
        let allowed = Self.allowed(type).union([.type, .required, .title])
        for key in DeclarationKey.allCases where !allowed.contains(key) {
            guard let misplaced = fields[key] else { continue }
            let takes = Self.allowed(type).map(\.rawValue).sorted()
            let hint = takes.isEmpty ? "it takes only required and title" : "it takes \(takes.joined(separator: ", "))"
            report("\(key.rawValue) does not apply to a setting of type \(type.rawValue) (\(hint))", at: misplaced.key)
            valid = false
        }
        if let title = fields[.title], title.value.kind != .scalar {
            report("title must be a string, not \(title.value.kindDescription)", at: title.value)
            valid = false
        }
        let required = optionalBool(fields[.required], "required")
        guard let kind = readKind(type, fields, owner: node), valid, let required else { return nil }
        return SettingDeclaration(kind, required: required)
    }

    private mutating func readType(_ node: YAMLNode) -> TypeName? {
        let names = TypeName.allCases.map(\.rawValue)
        let text = node.kind == .scalar ? document.text(node) : ""
        if let type = TypeName(rawValue: text) { return type }
        let shown = node.kind != .scalar ? node.kindDescription : document.isNull(node) ? "nothing" : "'\(text)'"
        let hint = KeySuggestion.closest(to: text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        report("type must be one of \(names.joined(separator: ", ")), not \(shown)\(hint)", at: node)
        return nil
    }

    private mutating func readKind(_ type: TypeName, _ fields: [DeclarationKey: Pair], owner: YAMLNode) -> SettingDeclaration.Kind? {
        switch type {
        case .string:
            guard let length = positive(fields[.maxLength], "maxLength") else { return nil }
            return .string(maxLength: length.value)
        case .int:
            let low = whole(fields[.min], "min"), high = whole(fields[.max], "max")
            guard let low, let high, ordered(low.value.map(Double.init), high.value.map(Double.init), fields) else { return nil }
            return .int(min: low.value, max: high.value)
        case .number:
            let low = number(fields[.min], "min"), high = number(fields[.max], "max")
            guard let low, let high, ordered(low.value, high.value, fields) else { return nil }
            return .number(min: low.value, max: high.value)
        case .bool:
            return .bool
        case .any:
            return .any
        case .choice:
            return readValues(fields[.values], owner: owner).map { .choice($0) }
        case .words:
            let length = positive(fields[.maxLength], "maxLength")
            let list = readWordList(fields, owner: owner)
            guard let length, let list else { return nil }
            return .words(list, maxLength: length.value)
        }
    }

    // MARK: Values

    /// A value that may be absent: `value` nil then; the whole result nil when wrong (reported).
    private struct Given<T> {
        var value: T?
    }

    private mutating func whole(_ pair: Pair?, _ field: String) -> Given<Int>? {
        guard let pair, !document.isNull(pair.value) else { return Given(value: nil) }
        if pair.value.kind == .scalar, case .success(.int(let number)) = document.scalar(pair.value) { return Given(value: number) }
        report("\(field) must be a whole number, not \(shown(pair.value))", at: pair.value)
        return nil
    }

    private mutating func positive(_ pair: Pair?, _ field: String) -> Given<Int>? {
        guard let given = whole(pair, field) else { return nil }
        if let value = given.value, value < 1, let node = pair?.value {
            report("\(field) must be at least 1, not \(value)", at: node)
            return nil
        }
        return given
    }

    private mutating func number(_ pair: Pair?, _ field: String) -> Given<Double>? {
        guard let pair, !document.isNull(pair.value) else { return Given(value: nil) }
        if pair.value.kind == .scalar {
            switch document.scalar(pair.value) {
            case .success(.int(let number)): return Given(value: Double(number))
            case .success(.double(let number)) where number.isFinite: return Given(value: number)
            default: break
            }
        }
        report("\(field) must be a finite number, not \(shown(pair.value))", at: pair.value)
        return nil
    }

    private mutating func ordered(_ low: Double?, _ high: Double?, _ fields: [DeclarationKey: Pair]) -> Bool {
        guard let low, let high, low > high, let node = fields[.max]?.value else { return true }
        report("max must not be below min (\(document.text(fields[.min]?.value ?? node)))", at: node)
        return false
    }

    private mutating func readValues(_ pair: Pair?, owner: YAMLNode) -> [String]? {
        guard let pair, pair.value.kind == .sequence, document.count(pair.value) > 0 else {
            report("a setting of type choice needs values: (a list of the texts it may be, such as [low, high])",
                   at: pair?.value ?? owner)
            return nil
        }
        var values: [String] = []
        for item in document.items(pair.value) {
            guard item.kind == .scalar, !document.isNull(item) else {
                report("values must be strings, not \(shown(item))", at: item)
                return nil
            }
            values.append(document.text(item))
        }
        return values
    }

    private mutating func readWordList(_ fields: [DeclarationKey: Pair], owner: YAMLNode) -> WordList? {
        guard let pair = fields[.names], !document.isNull(pair.value) else {
            report("a setting of type words needs names: (the file of its words, one a line, in the plugin's folder)",
                   at: fields[.names]?.key ?? owner)
            return nil
        }
        let nodes = pair.value.kind == .sequence ? document.items(pair.value) : [pair.value]
        var files: [String] = []
        var spelled: [String] = []
        for node in nodes {
            guard node.kind == .scalar, !document.isNull(node), !document.text(node).isBlank else {
                report("names must be a file name or a list of file names, not \(shown(node))", at: node)
                return nil
            }
            let file = document.text(node)
            let path = file.hasPrefix("/") ? file : join(folder, file)
            do {
                spelled += WordListFile.words(in: try FileBytes.read(path, maxBytes: 4 << 20))
            } catch {
                report("cannot read the names file \(file): \(error.reason)", at: node)
                return nil
            }
            files.append(file)
        }
        var separators: Set<Character> = [" "]
        if let pair = fields[.separators], !document.isNull(pair.value) {
            guard pair.value.kind == .scalar, !document.text(pair.value).isEmpty else {
                report("separators must be a string of the characters between words, such as \" +\"", at: pair.value)
                return nil
            }
            separators = Set(document.text(pair.value))
        }
        guard let characters = optionalBool(fields[.characters], "characters") else { return nil }
        return WordList(files: files, spelled: spelled, separators: separators, characters: characters)
    }

    private func shown(_ node: YAMLNode) -> String {
        node.kind != .scalar ? node.kindDescription : document.isNull(node) ? "nothing" : "'\(document.text(node))'"
    }
}
