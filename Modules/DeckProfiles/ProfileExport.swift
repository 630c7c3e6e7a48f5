import DeckModel

extension DeckProfile {
    /// The profile as canonical profile YAML (PROFILE.md §5, `deckctl export`).
    ///
    /// - Mapping form: each page's `buttons:` maps slot numbers to buttons,
    ///   empty slots left out; a page with no buttons is `buttons: {}`; the
    ///   empty page that normal form keeps at the end is left out.
    /// - Stable order: `name`, `slotsPerPage`, `pages`; a page's `title`, then
    ///   `buttons`; a button's `name`, `icon`, `action`, `style`, `states`; an action's kind key
    ///   first, then its fields in the contract's order; settings by key.
    /// - One button per line, in flow style.
    /// - Quotes only where YAML 1.1 would otherwise read something else
    ///   (`"yes"`, `"~"`, `"1.5"`, `": "`…); Korean and emoji stay as they are.
    ///
    /// Parsing the result gives back an equal profile.
    public var yaml: String {
        var out = "name: " + YAMLText.scalar(name, flow: false) + "\n"
        out += "slotsPerPage: \(layout.slotsPerPage)\n"
        var pages = layout.pages[...]
        if let last = pages.last, last.isEmpty, last.title == nil { pages = pages.dropLast() }
        guard !pages.isEmpty else { return out + "pages: []\n" }
        out += "pages:\n"
        for page in pages {
            var lead = "  - "
            if let title = page.title {
                out += lead + "title: " + YAMLText.scalar(title, flow: false) + "\n"
                lead = "    "
            }
            guard !page.isEmpty else {
                out += lead + "buttons: {}\n"
                continue
            }
            out += lead + "buttons:\n"
            for (index, button) in page.buttons.enumerated() {
                guard let button else { continue }
                out += "      \(index): " + Self.flow(button) + "\n"
            }
        }
        return out
    }

    private static func flow(_ button: DeckButton) -> String {
        var fields = ["name: " + YAMLText.scalar(button.name, flow: true)]
        if let icon = button.icon { fields.append("icon: " + YAMLText.scalar(icon, flow: true)) }
        fields.append("action: " + flow(button.action))
        if let style = button.style { fields.append("style: " + flow(style)) }
        if !button.states.isEmpty {
            fields.append("states: [" + button.states.map(flow).joined(separator: ", ") + "]")
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func flow(_ style: ButtonStyle) -> String {
        var fields: [String] = []
        // Colours are quoted: `#` would start a comment in YAML.
        if let color = style.color { fields.append("color: " + YAMLText.scalar(color.text, flow: true)) }
        if let background = style.background { fields.append("background: " + YAMLText.scalar(background.text, flow: true)) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func flow(_ state: ButtonState) -> String {
        var fields = ["id: " + YAMLText.scalar(state.id, flow: true)]
        if let name = state.name { fields.append("name: " + YAMLText.scalar(name, flow: true)) }
        if let icon = state.icon { fields.append("icon: " + YAMLText.scalar(icon, flow: true)) }
        if let style = state.style { fields.append("style: " + flow(style)) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func flow(_ action: DeckAction) -> String {
        var fields: [String] = []
        switch action {
        case let .run(command, cwd, timeout, follow):
            fields.append("run: " + YAMLText.scalar(command, flow: true))
            if let cwd { fields.append("cwd: " + YAMLText.scalar(cwd, flow: true)) }
            if let timeout { fields.append("timeout: " + YAMLText.seconds(timeout)) }
            if let follow { fields.append("follow: " + YAMLText.scalar(follow, flow: true)) }
        case .open(let target):
            fields.append("open: " + YAMLText.scalar(target, flow: true))
        case .page(.next):
            fields.append("page: next")
        case .page(.previous):
            fields.append("page: previous")
        case .page(.number(let number)):
            fields.append("page: \(number)")
        case .profile(let profile):
            fields.append("profile: " + YAMLText.scalar(profile, flow: true))
        case let .plugin(id, command, settings):
            fields.append("plugin: " + YAMLText.scalar(id, flow: true))
            fields.append("command: " + YAMLText.scalar(command, flow: true))
            if let settings { fields.append("settings: " + flow(.object(settings))) }
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func flow(_ value: DeckValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return YAMLText.float(value)
        case .string(let value): return YAMLText.scalar(value, flow: true)
        case .array(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let object):
            let pairs = object.keys.sorted().map { key -> String in
                let written = YAMLText.scalar(key, flow: true)
                // libyaml reads a simple key of at most 1024 characters; longer
                // ones need the explicit `? key : value` form.
                let value = flow(object[key] ?? .null)
                return written.unicodeScalars.count > 1000 ? "? \(written) : \(value)" : "\(written): \(value)"
            }
            return "{" + pairs.joined(separator: ", ") + "}"
        }
    }
}
