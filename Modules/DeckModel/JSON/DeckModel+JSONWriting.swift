// The JSON of PROTOCOL.md §3 written with `JSONWriter`, key for key what
// DeckModel's `Codable` conformances write (the tests compare the two on
// random layouts), in the order PROTOCOL.md shows: a forgotten field fails
// those tests.

extension JSONWriter {
    /// `{"name","icon"?,"action","style"?,"states"?}` (docs/faces.md §1).
    package mutating func write(_ button: DeckButton) {
        beginObject()
        field("name", button.name)
        field("icon", button.icon)
        key("action")
        write(button.action)
        if let style = button.style {
            key("style")
            write(style)
        }
        if !button.states.isEmpty {
            field("states", button.states) { writer, state in writer.write(state) }
        }
        endObject()
    }

    /// `{"color"?,"background"?}`.
    package mutating func write(_ style: ButtonStyle) {
        beginObject()
        field("color", style.color?.text)
        field("background", style.background?.text)
        endObject()
    }

    /// `{"id","name"?,"icon"?,"style"?}`.
    package mutating func write(_ state: ButtonState) {
        beginObject()
        field("id", state.id)
        field("name", state.name)
        field("icon", state.icon)
        if let style = state.style {
            key("style")
            write(style)
        }
        endObject()
    }

    /// A button, or `null` for an empty slot.
    package mutating func write(_ button: DeckButton?) {
        if let button { write(button) } else { null() }
    }

    /// The one-kind-key object of PROFILE.md §3, the kind key first.
    package mutating func write(_ action: DeckAction) {
        beginObject()
        switch action {
        case let .run(command, cwd, timeout, follow):
            field("run", command)
            field("cwd", cwd)
            if let timeout { field("timeout", timeout) }
            field("follow", follow)
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
    package mutating func write(_ layout: DeckLayout) {
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
    package mutating func write(_ settings: [String: DeckValue]) {
        beginObject()
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            self.key(key)
            write(value)
        }
        endObject()
    }

    /// A value as the JSON it stands for; a `double` keeps its fraction (`2.0`).
    package mutating func write(_ value: DeckValue) {
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
    package static func estimatedSize(of layout: DeckLayout) -> Int {
        // Slots, not buttons: counting buttons would walk the whole layout once more.
        64 + layout.pages.count * (24 + layout.slotsPerPage * 96)
    }
}

/// A layout and its JSON, encoded once.
///
/// The host changes the layout once per revision but sends it many times: in
/// the `layout` broadcast, in every `welcome` until the next change, and in
/// the revision's snapshot. Encoding a 12,000-button layout takes a few
/// milliseconds; this keeps the bytes next to the layout they came from, so
/// they cannot be paired with another one.
package struct EncodedLayout: Sendable {
    /// The layout.
    package let layout: DeckLayout
    /// Its JSON (PROTOCOL.md §3), without a final newline.
    package let json: [UInt8]
    /// The first number JSON cannot hold that the JSON has as `null` (see
    /// ``JSONWriter/nonFiniteNumber``).
    package let nonFiniteNumber: Double?

    package init(_ layout: DeckLayout) {
        var writer = JSONWriter(capacity: JSONWriter.estimatedSize(of: layout))
        writer.write(layout)
        self.layout = layout
        self.json = writer.bytes
        self.nonFiniteNumber = writer.nonFiniteNumber
    }

    /// These bytes when they encode `other`, else nil. Cheap when `other`
    /// is the very value this was made from (arrays compare their storage
    /// first), so callers may ask for every line.
    package func json(for other: DeckLayout) -> [UInt8]? {
        other == layout ? json : nil
    }
}

extension JSONWriter {
    /// Writes `layout`, reusing `encoded`'s bytes when they are its JSON.
    package mutating func write(_ layout: DeckLayout, reusing encoded: EncodedLayout?) {
        if let encoded, let json = encoded.json(for: layout) {
            value(encoded: json, nonFiniteNumber: encoded.nonFiniteNumber)
        } else {
            write(layout)
        }
    }
}
