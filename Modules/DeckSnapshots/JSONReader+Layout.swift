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
        var fields: [String: DeckValue] = [:]
        try object { reader, key throws(DocumentProblem) in
            if DeckAction.kindKeys.contains(key) { kinds.append(key) }
            switch key {
            case "run", "open", "page", "profile", "plugin", "command", "cwd", "timeout", "settings":
                fields[key] = try reader.value()
            default:
                try reader.skip()
            }
        }
        guard kinds.count == 1, let kind = kinds.first else {
            throw invalid("action needs exactly one of run, open, page, profile, plugin (found \(kinds.isEmpty ? "none" : kinds.joined(separator: " and ")))")
        }
        func text(_ key: String) throws(DocumentProblem) -> String {
            guard case .string(let value) = fields[key] else {
                throw fieldProblem(key, fields[key] == nil ? "is missing" : "has the wrong type")
            }
            return value
        }
        /// nil when absent or null, as `decodeIfPresent` has it.
        func optional(_ key: String) -> DeckValue? {
            fields[key] == .null ? nil : fields[key]
        }
        switch kind {
        case "run":
            let timeout: Double?
            switch optional("timeout") {
            case nil: timeout = nil
            case .int(let seconds)?: timeout = Double(seconds)
            case .double(let seconds)?: timeout = seconds
            default: throw fieldProblem("timeout", "has the wrong type")
            }
            return .run(command: try text("run"), cwd: optional("cwd") == nil ? nil : try text("cwd"), timeout: timeout)
        case "open":
            return .open(try text("open"))
        case "page":
            switch fields["page"] {
            case .int(let number)?: return .page(.number(number))
            case .string("next")?: return .page(.next)
            case .string("previous")?: return .page(.previous)
            default: throw invalid("page must be next, previous or a page number")
            }
        case "profile":
            return .profile(try text("profile"))
        default:
            let settings: [String: DeckValue]?
            switch optional("settings") {
            case nil: settings = nil
            case .object(let members)?: settings = members
            default: throw fieldProblem("settings", "has the wrong type")
            }
            return .plugin(id: try text("plugin"), command: try text("command"), settings: settings)
        }
    }
}
