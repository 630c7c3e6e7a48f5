import DeckModel

/// The JSON of PROTOCOL.md §3 (buttons, actions, layouts) read from the
/// codec's parse tree and written with ``JSONWriter``.
///
/// DeckModel's own `Codable` conformance says the same JSON, but reading
/// here keeps the protocol's distinction the `Codable` path cannot make:
/// a wrongly typed field is `malformed`, a well-typed button that breaks a
/// rule is `invalid`. The tests check that both paths agree on valid JSON.
enum ModelJSON {
    static let buttonObject = "a button object"

    // MARK: Reading

    static func button(_ value: JSONValue) throws(FieldError) -> DeckButton {
        let fields = try FieldReader(value, expected: buttonObject)
        let button = DeckButton(
            name: try fields.string("name"),
            icon: try fields.stringIfPresent("icon"),
            action: try fields.decode("action", expected: "an action object") { value throws(FieldError) in
                try action(value)
            })
        do {
            try button.validate()
        } catch {
            throw .invalid(error.description)
        }
        return button
    }

    static func action(_ value: JSONValue) throws(FieldError) -> DeckAction {
        let fields = try FieldReader(value, expected: "an action object")
        let kinds = DeckAction.kindKeys.filter { fields.optional($0) != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            let found = kinds.isEmpty ? "none" : kinds.joined(separator: " and ")
            throw .invalid("an action needs exactly one of run, open, page, profile, plugin (found \(found))")
        }
        switch kind {
        case "run":
            return .run(
                command: try fields.string("run"),
                cwd: try fields.stringIfPresent("cwd"),
                timeout: try fields.decodeIfPresent("timeout") { value throws(FieldError) in
                    guard let seconds = value.doubleValue else {
                        throw .wrongType(expected: "a number of seconds", got: value.typeName)
                    }
                    return seconds
                })
        case "open":
            return .open(try fields.string("open"))
        case "page":
            return .page(try fields.decode("page", expected: "next, previous or a page number") { value throws(FieldError) in
                try pageTarget(value)
            })
        case "profile":
            return .profile(try fields.string("profile"))
        default:
            return .plugin(
                id: try fields.string("plugin"),
                command: try fields.string("command"),
                settings: try fields.decodeIfPresent("settings") { value throws(FieldError) in
                    guard case .object(let object) = value else {
                        throw .wrongType(expected: "an object", got: value.typeName)
                    }
                    return settings(object)
                })
        }
    }

    static func pageTarget(_ value: JSONValue) throws(FieldError) -> PageTarget {
        if let number = value.intValue { return .number(number) }
        switch value.stringValue {
        case "next"?: return .next
        case "previous"?: return .previous
        case let other?: throw .invalid("a page action goes to next, previous or a page number, not '\(other)'")
        case nil: throw .wrongType(expected: "next, previous or a page number", got: value.typeName)
        }
    }

    static func layout(_ value: JSONValue) throws(FieldError) -> DeckLayout {
        let fields = try FieldReader(value, expected: "a layout object")
        let slots = try fields.intIfPresent("slotsPerPage") ?? DeckConstants.defaultSlotsPerPage
        let pages = try fields.array("pages", of: "pages") { value throws(FieldError) in
            try page(value, slots: slots)
        }
        do {
            return try DeckLayout(slotsPerPage: slots, pages: pages)
        } catch {
            throw .invalid(error.description)
        }
    }

    static func page(_ value: JSONValue, slots: Int) throws(FieldError) -> DeckPage {
        let fields = try FieldReader(value, expected: "a page object")
        let buttons = try fields.array("buttons", of: "buttons or null") { value throws(FieldError) -> DeckButton? in
            if case .null = value { return nil }
            return try button(value)
        }
        guard buttons.count == slots else {
            throw FieldError.malformed("a page has \(buttons.count) slots but pages hold \(slots)")
        }
        return DeckPage(title: try fields.stringIfPresent("title"), buttons: buttons)
    }

    static func settings(_ object: JSONObject) -> [String: DeckValue] {
        Dictionary(object.members.map { ($0.key, deckValue($0.value)) }, uniquingKeysWith: { _, last in last })
    }

    static func deckValue(_ value: JSONValue) -> DeckValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(deckValue))
        case .object(let object): .object(settings(object))
        }
    }
}

extension FieldReader {
    /// A required button field.
    func button(_ key: String) throws(FieldError) -> DeckButton {
        try decode(key, expected: ModelJSON.buttonObject) { value throws(FieldError) in try ModelJSON.button(value) }
    }

    /// An optional button field (absent or `null`: nil).
    func buttonIfPresent(_ key: String) throws(FieldError) -> DeckButton? {
        try decodeIfPresent(key) { value throws(FieldError) in try ModelJSON.button(value) }
    }
}

// MARK: Writing

extension JSONWriter {
    /// `{"name","icon"?,"action"}`, in the order PROTOCOL.md shows.
    mutating func write(_ button: DeckButton) {
        beginObject()
        field("name", button.name)
        field("icon", button.icon)
        key("action")
        write(button.action)
        endObject()
    }

    /// A button, or `null` for an empty slot.
    mutating func write(_ button: DeckButton?) {
        if let button { write(button) } else { null() }
    }

    /// The one-kind-key object of PROFILE.md §3, the kind key first.
    mutating func write(_ action: DeckAction) {
        beginObject()
        switch action {
        case let .run(command, cwd, timeout):
            field("run", command)
            field("cwd", cwd)
            if let timeout { field("timeout", timeout) }
        case .open(let target):
            field("open", target)
        case .page(.next):
            field("page", "next")
        case .page(.previous):
            field("page", "previous")
        case .page(.number(let page)):
            field("page", page)
        case .profile(let name):
            field("profile", name)
        case let .plugin(id, command, settings):
            field("plugin", id)
            field("command", command)
            if let settings {
                key("settings")
                write(settings)
            }
        }
        endObject()
    }

    /// `{"slotsPerPage","pages":[{"title"?,"buttons":[…]}…]}`.
    mutating func write(_ layout: DeckLayout) {
        beginObject()
        field("slotsPerPage", layout.slotsPerPage)
        key("pages")
        beginArray()
        for page in layout.pages {
            beginObject()
            field("title", page.title)
            key("buttons")
            beginArray()
            for slot in page.buttons { write(slot) }
            endArray()
            endObject()
        }
        endArray()
        endObject()
    }

    /// Plugin settings with their keys sorted, so that the same layout is
    /// always the same bytes (dictionary order changes from run to run).
    mutating func write(_ settings: [String: DeckValue]) {
        beginObject()
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            self.key(key)
            write(value)
        }
        endObject()
    }

    mutating func write(_ value: DeckValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number): exactDouble(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let object): write(object)
        }
    }

    /// A rough size for a layout's JSON, so the buffer grows once or not at all.
    static func estimatedSize(of layout: DeckLayout) -> Int {
        // Slots, not buttons: counting buttons would walk the whole layout once more.
        64 + layout.pages.count * (24 + layout.slotsPerPage * 96)
    }
}
