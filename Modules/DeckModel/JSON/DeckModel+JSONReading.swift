// The JSON of PROTOCOL.md §3 (buttons, actions, pages, layouts) read from a
// parse. DeckModel's `Codable` conformances say the same JSON; this path
// exists because it is about ten times faster on a large layout, and it keeps
// the distinction `Codable` cannot make: a wrongly typed field or a page of
// the wrong size is `malformed`, a well-typed button that breaks a rule is
// `invalid`. The tests check that both paths agree on valid JSON.
//
// Rules, the same for every field: `null` for an optional field means "not
// given", unknown keys are ignored, the last of two equal keys wins, and an
// integer may be written `7.0`.

extension DeckButton {
    package static let jsonExpected = "a button object"

    /// Reads `{"name","icon"?,"action","style"?,"states"?}` and checks it with ``validate()``.
    package init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.jsonExpected)
        self.init(
            name: try fields.string("name"),
            icon: try fields.stringIfPresent("icon"),
            action: try fields.decode("action", expected: DeckAction.jsonExpected) { value throws(JSONError) in
                try DeckAction(json: value)
            },
            style: try fields.decodeIfPresent("style") { value throws(JSONError) in try ButtonStyle(json: value) },
            states: try fields.arrayIfPresent("states") { value throws(JSONError) in try ButtonState(json: value) })
        do {
            try validate()
        } catch {
            throw .invalid(error.description)
        }
    }
}

extension ButtonStyle {
    /// Reads `{"color"?,"background"?}`; each a hex colour or a palette name.
    package init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: "a style object {color, background}")
        self.init(color: try fields.colorIfPresent("color"), background: try fields.colorIfPresent("background"))
    }
}

extension ButtonState {
    /// Reads `{"id","name"?,"icon"?,"style"?}` (the button checks the id).
    package init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: "a state object {id, name, icon, style}")
        self.init(id: try fields.string("id"), name: try fields.stringIfPresent("name"),
                  icon: try fields.stringIfPresent("icon"),
                  style: try fields.decodeIfPresent("style") { value throws(JSONError) in try ButtonStyle(json: value) })
    }
}

extension JSONFieldReader {
    /// An optional colour: a `#rgb`/`#rrggbb` hex colour or a palette name.
    package func colorIfPresent(_ key: StaticString) throws(JSONError) -> DeckColor? {
        try decodeIfPresent(key) { value throws(JSONError) -> DeckColor in
            let text = try JSONFieldReader.string(value)
            guard let color = DeckColor(text) else {
                throw JSONError.invalid("'\(text)' is not a colour (#rgb, #rrggbb or one of \(DeckColor.palette.joined(separator: " ")))")
            }
            return color
        }
    }
}

extension DeckAction {
    package static let jsonExpected = "an action object"
    /// ``kindKeys`` as the reader looks them up (a test checks they are the same).
    package static let jsonKindKeys: [StaticString] = ["run", "open", "page", "profile", "plugin"]

    /// Reads the one-kind-key object of PROFILE.md §3. Fields another kind
    /// would use are ignored, whatever their type.
    package init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.jsonExpected)
        var kind = 0
        var kinds = 0
        for (index, key) in Self.jsonKindKeys.enumerated() where fields.optional(key) != nil {
            kind = index
            kinds += 1
        }
        guard kinds == 1 else {
            let found = zip(Self.kindKeys, Self.jsonKindKeys).filter { fields.optional($0.1) != nil }.map(\.0)
            throw .invalid("an action needs exactly one of run, open, page, profile, plugin (found \(found.isEmpty ? "none" : found.joined(separator: " and ")))")
        }
        switch Self.kindKeys[kind] {
        case "run":
            self = .run(command: try fields.string("run"), cwd: try fields.stringIfPresent("cwd"),
                        timeout: try fields.secondsIfPresent("timeout"), follow: try fields.stringIfPresent("follow"))
        case "open":
            self = .open(try fields.string("open"))
        case "page":
            self = .page(try fields.decode("page", expected: PageTarget.jsonExpected) { value throws(JSONError) in
                try PageTarget(json: value)
            })
        case "profile":
            self = .profile(try fields.string("profile"))
        default:
            self = .plugin(
                id: try fields.string("plugin"),
                command: try fields.string("command"),
                settings: try fields.decodeIfPresent("settings") { value throws(JSONError) in
                    guard value.objectValue != nil, case .object(let settings) = value.deckValue else {
                        throw .wrongType(expected: "an object", got: value.typeName)
                    }
                    return settings
                })
        }
    }
}

extension PageTarget {
    package static let jsonExpected = "next, previous or a page number"

    /// `"next"`, `"previous"` or a page number.
    package init(json value: JSONValue) throws(JSONError) {
        if let number = value.intValue {
            self = .number(number)
            return
        }
        switch value.stringValue {
        case "next"?: self = .next
        case "previous"?: self = .previous
        case let other?: throw .invalid("a page action goes to next, previous or a page number, not '\(other)'")
        case nil: throw .wrongType(expected: Self.jsonExpected, got: value.typeName)
        }
    }
}

extension DeckPage {
    /// Reads `{"title"?,"buttons":[button or null, …]}`, which must hold exactly `slots` slots.
    package init(json value: JSONValue, slots: Int) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: "a page object")
        let buttons = try fields.array("buttons", of: "buttons or null") { value throws(JSONError) -> DeckButton? in
            value.isNull ? nil : try DeckButton(json: value)
        }
        guard buttons.count == slots else {
            throw .malformed("a page has \(buttons.count) slots but pages hold \(slots)")
        }
        self.init(title: try fields.stringIfPresent("title"), buttons: buttons)
    }
}

extension DeckLayout {
    package static let jsonExpected = "a layout object"

    /// Reads `{"slotsPerPage"?,"pages"}` (PROTOCOL.md §3): every button
    /// validated, every page of `slotsPerPage` slots, the result normalized.
    package init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.jsonExpected)
        let slots = try fields.intIfPresent("slotsPerPage") ?? DeckConstants.defaultSlotsPerPage
        let pages = try fields.array("pages", of: "pages") { value throws(JSONError) in
            try DeckPage(json: value, slots: slots)
        }
        do {
            try self.init(slotsPerPage: slots, pages: pages)
        } catch {
            throw .invalid(error.description)
        }
    }
}

extension JSONFieldReader {
    /// A required button field.
    package func button(_ key: StaticString) throws(JSONError) -> DeckButton {
        try decode(key, expected: DeckButton.jsonExpected) { value throws(JSONError) in try DeckButton(json: value) }
    }

    /// An optional button field (absent or `null`: nil).
    package func buttonIfPresent(_ key: StaticString) throws(JSONError) -> DeckButton? {
        try decodeIfPresent(key) { value throws(JSONError) in try DeckButton(json: value) }
    }

    /// A required layout field.
    package func layout(_ key: StaticString) throws(JSONError) -> DeckLayout {
        try decode(key, expected: DeckLayout.jsonExpected) { value throws(JSONError) in try DeckLayout(json: value) }
    }
}

extension JSONValue {
    /// Any value as plain data (plugin settings). Integers stay integers so
    /// `2` reads back as `2`; of two equal keys the last one wins.
    package var deckValue: DeckValue {
        // Iterative, like the parser: the walk keeps its unfinished arrays and
        // objects on a heap stack, so deep settings cannot overflow the stack.
        var open: [OpenContainer] = []
        var position = index
        while true {
            var key = ""
            if case .object? = open.last {
                key = JSONValue(tree: tree, index: position).stringValue ?? ""
                position += 1
            }
            let node = JSONValue(tree: tree, index: position)
            position += 1
            var value: DeckValue
            switch node.tree.nodes[node.index].kind {
            case .null: value = .null
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .int: value = .int(node.intValue ?? 0)
            case .double: value = .double(node.doubleValue ?? 0)
            case .string, .escapedString: value = .string(node.stringValue ?? "")
            case .array where node.count > 0:
                open.append(.array([], key: key, remaining: node.count))
                continue
            case .object where node.count > 0:
                open.append(.object([:], key: key, remaining: node.count))
                continue
            case .array: value = .array([])
            case .object: value = .object([:])
            }
            // A complete value: put it in its container, and finish every
            // container it completes.
            while var container = open.popLast() {
                guard container.add(value, key: key) else {
                    open.append(container)
                    break
                }
                (value, key) = container.finished
            }
            if open.isEmpty { return value }
        }
    }

    /// An array or object being read by ``deckValue``, with the key it has in
    /// its own container and how many more values it expects.
    private enum OpenContainer {
        case array([DeckValue], key: String, remaining: Int)
        case object([String: DeckValue], key: String, remaining: Int)

        /// Adds a value; true when that was the container's last one.
        mutating func add(_ value: DeckValue, key member: String) -> Bool {
            switch self {
            case .array(var elements, let key, let remaining):
                self = .array([], key: key, remaining: 0)  // drop the reference before appending: no copy
                elements.append(value)
                self = .array(elements, key: key, remaining: remaining - 1)
                return remaining <= 1
            case .object(var members, let key, let remaining):
                self = .object([:], key: key, remaining: 0)
                members[member] = value
                self = .object(members, key: key, remaining: remaining - 1)
                return remaining <= 1
            }
        }

        var finished: (DeckValue, key: String) {
            switch self {
            case .array(let elements, let key, _): (.array(elements), key)
            case .object(let members, let key, _): (.object(members), key)
            }
        }
    }
}
