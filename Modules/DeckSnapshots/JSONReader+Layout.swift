import DeckModel

/// DeckModel's JSON forms (PROTOCOL.md §3), read with the same rules as its
/// `Codable` conformances: optional fields may be absent or null, unknown keys
/// are ignored, every button is validated and the layout normalized. If
/// DeckModel's `Codable` changes, change this too (`LayoutJSONTests` compares them).
extension JSONReader {
    mutating func layout() throws(DocumentProblem) -> DeckLayout {
        var slots: Int?
        var pages: [DeckPage]?
        try object { reader, key throws(DocumentProblem) in
            switch key {
            case "slotsPerPage": slots = reader.null() ? nil : try reader.int()
            case "pages":
                var list: [DeckPage] = []
                try reader.array { reader, _ throws(DocumentProblem) in list.append(try reader.page()) }
                pages = list
            default: try reader.skip()
            }
        }
        guard let pages else { throw missing("pages") }
        let slotsPerPage = slots ?? DeckConstants.defaultSlotsPerPage
        if let short = pages.firstIndex(where: { $0.buttons.count != slotsPerPage }) {
            throw invalid("page \(short) has \(pages[short].buttons.count) slots but pages hold \(slotsPerPage)")
        }
        do {
            return try DeckLayout(slotsPerPage: slotsPerPage, pages: pages)
        } catch {
            throw invalid(error.description)
        }
    }

    private mutating func page() throws(DocumentProblem) -> DeckPage {
        var title: String?
        var buttons: [DeckButton?]?
        try object { reader, key throws(DocumentProblem) in
            switch key {
            case "title": title = try reader.optionalString()
            case "buttons":
                var slots: [DeckButton?] = []
                try reader.array { reader, _ throws(DocumentProblem) in
                    slots.append(reader.null() ? nil : try reader.button())
                }
                buttons = slots
            default: try reader.skip()
            }
        }
        guard let buttons else { throw missing("buttons") }
        return DeckPage(title: title, buttons: buttons)
    }

    private mutating func button() throws(DocumentProblem) -> DeckButton {
        var name: String?
        var icon: String?
        var action: DeckAction?
        try object { reader, key throws(DocumentProblem) in
            switch key {
            case "name": name = try reader.string()
            case "icon": icon = try reader.optionalString()
            case "action": action = try reader.action()
            default: try reader.skip()
            }
        }
        guard let name else { throw missing("name") }
        guard let action else { throw missing("action") }
        let button = DeckButton(name: name, icon: icon, action: action)
        do {
            try button.validate()
        } catch {
            throw invalid(error.description)
        }
        return button
    }

    /// Reads the fields any kind may use first, then reads them by kind, so a
    /// field the kind does not use is ignored whatever its type (as Codable does).
    private mutating func action() throws(DocumentProblem) -> DeckAction {
        var kinds: [String] = []
        // Kept as raw values; a field the kind does not use is never looked at.
        var run, open, page, profile, plugin, command, cwd, timeout, settings: DeckValue?
        try object { reader, key throws(DocumentProblem) in
            switch key {
            case "run": run = try reader.value(); kinds.append(key)
            case "open": open = try reader.value(); kinds.append(key)
            case "page": page = try reader.value(); kinds.append(key)
            case "profile": profile = try reader.value(); kinds.append(key)
            case "plugin": plugin = try reader.value(); kinds.append(key)
            case "command": command = try reader.value()
            case "cwd": cwd = try reader.value()
            case "timeout": timeout = try reader.value()
            case "settings": settings = try reader.value()
            default: try reader.skip()
            }
        }
        guard kinds.count == 1, let kind = kinds.first else {
            throw invalid("action needs exactly one of run, open, page, profile, plugin (found \(kinds.isEmpty ? "none" : kinds.joined(separator: " and ")))")
        }
        func text(_ value: DeckValue?, _ key: String) throws(DocumentProblem) -> String {
            guard case .string(let text) = value else { throw fieldProblem(key, value == nil ? "is missing" : "has the wrong type") }
            return text
        }
        switch kind {
        case "run":
            let seconds: Double?
            switch timeout {
            case nil, .null?: seconds = nil
            case .int(let value)?: seconds = Double(value)
            case .double(let value)?: seconds = value
            default: throw fieldProblem("timeout", "has the wrong type")
            }
            let directory = cwd == nil || cwd == .null ? nil : try text(cwd, "cwd")
            return .run(command: try text(run, "run"), cwd: directory, timeout: seconds)
        case "open":
            return .open(try text(open, "open"))
        case "page":
            switch page {
            case .int(let number)?: return .page(.number(number))
            case .string("next")?: return .page(.next)
            case .string("previous")?: return .page(.previous)
            default: throw invalid("page must be next, previous or a page number")
            }
        case "profile":
            return .profile(try text(profile, "profile"))
        default:
            let members: [String: DeckValue]?
            switch settings {
            case nil, .null?: members = nil
            case .object(let values)?: members = values
            default: throw fieldProblem("settings", "has the wrong type")
            }
            return .plugin(id: try text(plugin, "plugin"), command: try text(command, "command"), settings: members)
        }
    }
}
