import DeckModel

extension ProfileReader {
    private enum ButtonKey: String, ProfileKeys {
        case name, icon, action, style, states
        static let table = KeyTable<Self>()
    }

    /// Every key an action may have; `kind` is the action kind it belongs to.
    private enum ActionKey: String, ProfileKeys {
        case run, cwd, timeout, follow, open, page, profile, plugin, command, settings
        static let table = KeyTable<Self>()

        var kind: ActionKey {
            switch self {
            case .cwd, .timeout, .follow: .run
            case .command, .settings: .plugin
            default: self
            }
        }

        var isKind: Bool { kind == self }

        static let kinds: [ActionKey] = [.run, .open, .page, .profile, .plugin]
        static let fields: [ActionKey] = [.cwd, .timeout, .follow, .command, .settings]
    }

    /// An action's pairs by key: a fixed struct rather than a dictionary,
    /// because every button has one.
    private struct ActionFields {
        var run, cwd, timeout, follow, open, page, profile, plugin, command, settings: Pair?

        subscript(key: ActionKey) -> Pair? {
            switch key {
            case .run: run
            case .cwd: cwd
            case .timeout: timeout
            case .follow: follow
            case .open: open
            case .page: page
            case .profile: profile
            case .plugin: plugin
            case .command: command
            case .settings: settings
            }
        }

        mutating func set(_ key: ActionKey, _ pair: Pair) {
            switch key {
            case .run: run = pair
            case .cwd: cwd = pair
            case .timeout: timeout = pair
            case .follow: follow = pair
            case .open: open = pair
            case .page: page = pair
            case .profile: profile = pair
            case .plugin: plugin = pair
            case .command: command = pair
            case .settings: settings = pair
            }
        }
    }

    private static let oneKind = "action needs exactly one of run, open, page, profile, plugin"

    /// A button, or nil after reporting its problems. The checks here cover
    /// everything `DeckButton.validate()` checks (with positions); the tests
    /// hold every loaded button to `validate()` as well.
    mutating func readButton(_ node: YAMLNode) -> DeckButton? {
        guard node.kind == .mapping else {
            report("a button must be a mapping with name and action, not \(node.kindDescription)", at: node)
            return nil
        }
        var name: Pair?, icon: Pair?, action: Pair?, style: Pair?, states: Pair?
        let unknown = collect(node, in: "button", as: ButtonKey.self) { key, pair in
            switch key {
            case .name: name = pair
            case .icon: icon = pair
            case .action: action = pair
            case .style: style = pair
            case .states: states = pair
            }
        }
        // PROFILE.md §4 words this problem "(expected name, icon, action)" to the
        // letter; the optional face keys are listed too only when the typo is
        // closest to one of them, so 'stlye' still points at style.
        var typos: [ButtonKey] = []
        for pair in unknown {
            let closest = KeySuggestion.closest(to: document.text(pair.key), among: ButtonKey.allCases.map(\.rawValue))
            let faceTypo = closest == ButtonKey.style.rawValue || closest == ButtonKey.states.rawValue
            typos += reportUnknown([pair], in: "button", candidates: ButtonKey.allCases,
                                   expected: faceTypo ? "name, icon, action, style, states" : "name, icon, action")
        }
        let label = requiredText(name, "name", missing: "button needs a name", owner: node, typo: typos.contains(.name))
        let iconText = optionalText(icon, "icon")
        let sitesBefore = settingsSites.count
        let deed = readActionField(action, of: node, typo: typos.contains(.action))
        if settingsSites.count > sitesBefore, let label { settingsSites[settingsSites.count - 1].button = label }
        let looks = readStyle(style)
        let stateList = readStates(states)
        guard let label, let deed, let stateList else { return nil }
        return DeckButton(name: label, icon: iconText, action: deed, style: looks, states: stateList)
    }

    private mutating func readActionField(_ pair: Pair?, of button: YAMLNode, typo: Bool) -> DeckAction? {
        guard let pair else {
            if !typo, !document.hasFailedMerge(button) { report("button needs an action", at: button) }
            return nil
        }
        let node = pair.value
        if document.isPlaceholder(node) { return nil }
        if document.isNull(node) {
            report("button needs an action; this one is empty", at: pair.key)
            return nil
        }
        guard node.kind == .mapping else {
            report("action must be a mapping such as {run: \"command\"}, not \(node.kindDescription)", at: node)
            return nil
        }
        return readAction(node)
    }

    private mutating func readAction(_ node: YAMLNode) -> DeckAction? {
        var found = ActionFields()
        var unknown = collect(node, in: "action", as: ActionKey.self) { key, pair in found.set(key, pair) }
        // The kind decides which other keys belong, so it is known only now.
        var kind: ActionKey?
        var kindCount = 0
        for key in ActionKey.kinds where found[key] != nil {
            kindCount += 1
            kind = kind ?? key
        }
        guard kindCount == 1, let kind else {
            let kinds = ActionKey.kinds.filter { found[$0] != nil }
            let typos = reportUnknown(unknown, in: "action", candidates: ActionKey.allCases,
                                      expected: "one of run, open, page, profile, plugin")
            if kinds.isEmpty {
                if !typos.contains(where: \.isKind) { report(Self.oneKind, at: node) }
            } else {
                let keys = kinds.compactMap { found[$0]?.key }.sorted { $0.mark < $1.mark }
                let names = keys.map { document.text($0) }
                let listed = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
                report("\(Self.oneKind) (found \(listed))", at: keys[1])
            }
            return nil
        }
        let misplaced = ActionKey.fields.contains { $0.kind != kind && found[$0] != nil }
            ? ActionKey.allCases.filter { $0.kind != kind }.compactMap { found[$0] } : []
        var typos: [ActionKey] = []
        if !misplaced.isEmpty || !unknown.isEmpty {
            unknown = (unknown + misplaced).sorted { $0.key.mark < $1.key.mark }
            typos = reportUnknown(unknown, in: "\(kind.rawValue) action", candidates: ActionKey.allCases.filter { $0.kind == kind })
        }
        return readAction(kind, found, node, typos: typos)
    }

    private mutating func readAction(_ kind: ActionKey, _ found: ActionFields, _ node: YAMLNode, typos: [ActionKey]) -> DeckAction? {
        switch kind {
        case .run:
            let timeout = found[.timeout].flatMap { document.isNull($0.value) || document.isPlaceholder($0.value) ? nil : readTimeout($0.value) }
            let cwd = optionalText(found[.cwd], "cwd")
            let follow = readFollow(found[.follow])
            guard let command = requiredText(found[.run], "run", missing: "run needs a shell command", owner: node, typo: false) else { return nil }
            return .run(command: command, cwd: cwd, timeout: timeout, follow: follow)
        case .open:
            if let pair = found[.open], document.isNull(pair.value), document.textIs(pair.value, "~") {
                // The spec's own example opens "~", quoted: unquoted, YAML reads it as null.
                report("open needs a URL or a path; '~' alone is null in YAML, so write \"~\" in quotes for the home folder", at: pair.key)
                return nil
            }
            return requiredText(found[.open], "open", missing: "open needs a URL or a path", owner: node, typo: false).map { .open($0) }
        case .page:
            return found[.page].flatMap { readPageTarget($0) }.map { .page($0) }
        case .profile:
            return requiredText(found[.profile], "profile", missing: "profile needs the name of a profile", owner: node, typo: false).map { .profile($0) }
        default:
            let id = requiredText(found[.plugin], "plugin", missing: "plugin needs a plugin id", owner: node, typo: false)
            let command = requiredText(found[.command], "command", missing: "plugin action needs a command", owner: node,
                                       typo: typos.contains(.command))
            let settings = found[.settings].flatMap { readSettings($0) }
            guard let id, let command, let commandNode = found[.command]?.value else { return nil }
            settingsSites.append(settingsSite(plugin: id, command: command, commandNode: commandNode, settings: found[.settings],
                                              action: node))
            return .plugin(id: id, command: command, settings: settings)
        }
    }

    private mutating func readTimeout(_ node: YAMLNode) -> Double? {
        let seconds: Double? = node.kind != .scalar ? nil : document.withText(node) { bytes in
            switch YAML11.classify(bytes) {
            // Beyond 64 bits an integer is still a number of seconds, just a large one.
            case .int: YAML11.integerValue(bytes)
            case .float: YAML11.float(bytes)
            default: nil
            }
        }
        guard let seconds, seconds > 0, seconds.isFinite else {
            let shown = node.kind == .scalar ? "'\(document.text(node))'" : node.kindDescription
            report("timeout must be a positive number of seconds, not \(shown)", at: node)
            return nil
        }
        return seconds
    }

    private mutating func readPageTarget(_ pair: Pair) -> PageTarget? {
        let node = pair.value
        if document.isPlaceholder(node) { return nil }
        if node.kind == .scalar {
            if document.textIs(node, "next") { return .next }
            if document.textIs(node, "previous") { return .previous }
            if let number = wholeNumber(node) {
                guard number >= 0 else {
                    report("page numbers start at 0, not \(number)", at: node)
                    return nil
                }
                return .number(number)
            }
            if let problem = leadingZero(node, "page number") {
                report(problem, at: node)
                return nil
            }
        }
        let shown = node.kind != .scalar ? node.kindDescription : document.isNull(node) ? "nothing" : "'\(document.text(node))'"
        report("page must be next, previous or a page number, not \(shown)", at: document.isNull(node) ? pair.key : node)
        return nil
    }

    // MARK: Plugin settings

    private mutating func readSettings(_ pair: Pair) -> [String: DeckValue]? {
        settingsEntries.removeAll(keepingCapacity: true)
        let node = pair.value
        if document.isNull(node) { return nil }
        guard node.kind == .mapping else {
            report("settings must be a mapping, not \(node.kindDescription)", at: node)
            return nil
        }
        return readObject(node, depth: 1)
    }

    /// Plugin settings are free-form: YAML 1.1 typing decides what each
    /// scalar is, keys are taken as text.
    private mutating func readValue(_ node: YAMLNode, depth: Int) -> DeckValue {
        switch node.kind {
        case .scalar:
            switch document.scalar(node) {
            case .success(.null): return .null
            case .success(.bool(let value)): return .bool(value)
            case .success(.int(let value)): return .int(value)
            case .success(.double(let value)):
                guard value.isFinite else {
                    report("settings numbers must be finite: \(document.text(node)) cannot be sent to devices as JSON", at: node)
                    return .null
                }
                return .double(value)
            case .success(.string(let value)): return .string(value)
            case .failure(let error):
                report(error.description, at: node)
                return .null
            }
        case .sequence, .mapping:
            guard depth < DeckConstants.maximumSettingsDepth else {
                report("settings nest more than \(DeckConstants.maximumSettingsDepth) levels deep", at: node)
                return .null
            }
            if node.kind == .mapping { return .object(readObject(node, depth: depth + 1)) }
            return .array((0..<document.count(node)).map { readValue(document.item(node, $0), depth: depth + 1) })
        }
    }

    private mutating func readObject(_ node: YAMLNode, depth: Int) -> [String: DeckValue] {
        var object: [String: DeckValue] = [:]
        // The line each key was first given on, so a repeat is reported without
        // searching the keys before it (100,000 repeats took 17 s that way).
        var firstLines: [String: Int] = [:]
        for offset in 0..<document.count(node) {
            let (key, value) = document.pair(node, offset)
            guard key.kind == .scalar else {
                report("keys in settings must be strings, not \(key.kindDescription)", at: key)
                continue
            }
            let name = document.text(key)
            if let line = firstLines[name] {
                report("key '\(name)' is given twice (first at line \(line))", at: key)
                continue
            }
            firstLines[name] = key.mark.line
            let read = readValue(value, depth: depth)
            object[name] = read
            if depth == 1 {
                settingsEntries.append(SettingsSite.Entry(key: name, keyMark: key.mark, value: read, valueMark: value.mark,
                                                          style: value.style, isAlias: value.isAlias))
            }
        }
        return object
    }
}
