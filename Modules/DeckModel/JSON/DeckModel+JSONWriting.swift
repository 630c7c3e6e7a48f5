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
        field("pages", layout.pages) { writer, page in writer.write(page) }
        endObject()
    }

    /// `{"title"?,"buttons":[…]}`.
    package mutating func write(_ page: DeckPage) {
        beginObject()
        field("title", page.title)
        field("buttons", page.buttons) { writer, slot in writer.write(slot) }
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
/// they cannot be paired with another one. A revision made from the one
/// before (``init(_:reusing:)``) copies the bytes of every page the edit did
/// not touch, and on a page it did, of every button still in its slot, so
/// an edit encodes little more than the slots it wrote.
package struct EncodedLayout: Sendable {
    /// The layout.
    package var layout: DeckLayout { storage.layout }
    /// Its JSON (PROTOCOL.md §3), without a final newline.
    package var json: [UInt8] { storage.json }
    /// The first number JSON cannot hold that the JSON has as `null` (see
    /// ``JSONWriter/nonFiniteNumber``).
    package var nonFiniteNumber: Double? { storage.nonFiniteNumber }
    /// Where each page's object ends in ``json`` (its start is one byte, the
    /// comma, after the end of the page before; the first's is ``pagesStart``).
    private var pageEnds: [Int] { storage.pageEnds }
    /// Where the first page's object starts: after `{"slotsPerPage":N,"pages":[`.
    private var pagesStart: Int { storage.pagesStart }
    /// Where each page's slots are, from its object's start: a page copied
    /// whole shares its entry, so nothing here grows with untouched pages.
    private var slots: [PageSlots] { storage.slots }

    /// One reference: a revision's encoding is copied with every state,
    /// outcome and snapshot entry that carries it, and its six fields were
    /// copied one by one (callgrind: ~3 K instructions an edit on the loop).
    private let storage: Storage

    private final class Storage: Sendable {
        let layout: DeckLayout
        let json: [UInt8]
        let nonFiniteNumber: Double?
        let pageEnds: [Int]
        let pagesStart: Int
        let slots: [PageSlots]

        init(layout: DeckLayout, json: [UInt8], nonFiniteNumber: Double?, pageEnds: [Int], pagesStart: Int, slots: [PageSlots]) {
            self.layout = layout
            self.json = json
            self.nonFiniteNumber = nonFiniteNumber
            self.pageEnds = pageEnds
            self.pagesStart = pagesStart
            self.slots = slots
        }
    }

    /// A page's slot values within its object: the first starts at `first`,
    /// each ends at its entry in `ends`, and the next starts after a comma.
    private struct PageSlots: Sendable {
        var first = 0
        var ends: [Int] = []

        func range(_ slot: Int) -> Range<Int> {
            (slot == 0 ? first : ends[slot - 1] + 1)..<ends[slot]
        }

        /// The bytes of `slot` in `json`, whose page object starts at `start`.
        func bytes(_ slot: Int, in json: [UInt8], pageAt start: Int) -> ArraySlice<UInt8> {
            let range = range(slot)
            return json[(start + range.lowerBound)..<(start + range.upperBound)]
        }
    }

    package init(_ layout: DeckLayout) {
        self.init(layout, reusing: nil)
    }

    /// `layout`'s JSON, copying from `previous` the bytes of each page at the
    /// same place whose slots are the very same storage (an edit copies, and
    /// so changes, only the pages it writes to), and on another page the bytes
    /// of each button still in its slot; the bytes are the same as a whole
    /// encoding's.
    package init(_ layout: DeckLayout, reusing previous: EncodedLayout?) {
        // A page is reused only from a revision without a non-finite number,
        // so the first one in the new JSON is the first of the pages encoded.
        let source = previous.flatMap { $0.nonFiniteNumber == nil && $0.layout.slotsPerPage == layout.slotsPerPage ? $0 : nil }
        var writer = JSONWriter(capacity: source.map { $0.json.count + 512 } ?? JSONWriter.estimatedSize(of: layout))
        var ends: [Int] = []
        var slots: [PageSlots] = []
        ends.reserveCapacity(layout.pages.count)
        slots.reserveCapacity(layout.pages.count)
        writer.beginObject()
        writer.field("slotsPerPage", layout.slotsPerPage)
        writer.key("pages")
        writer.beginArray()
        let pagesStart = writer.bytes.count
        let oldPages = source?.layout.pages ?? []
        let oldJSON = source?.json ?? []
        for (index, page) in layout.pages.enumerated() {
            if let source, index < source.pageEnds.count {
                let start = source.start(ofPage: index)
                if page.isSameStorage(as: oldPages[index]) {
                    writer.value(encoded: oldJSON[start..<source.pageEnds[index]])
                    slots.append(source.slots[index])
                } else {
                    let old = OldPage(buttons: oldPages[index].buttons, slots: source.slots[index], json: oldJSON, start: start)
                    slots.append(Self.write(page, to: &writer, reusing: old))
                }
            } else {
                slots.append(Self.write(page, to: &writer, reusing: .none))
            }
            ends.append(writer.bytes.count)
        }
        writer.endArray()
        writer.endObject()
        storage = Storage(layout: layout, json: writer.bytes, nonFiniteNumber: writer.nonFiniteNumber, pageEnds: ends,
                          pagesStart: pagesStart, slots: slots)
    }

    private func start(ofPage index: Int) -> Int {
        index == 0 ? pagesStart : pageEnds[index - 1] + 1
    }

    /// The page at an index of the encoding a new one is made from: its
    /// buttons, where its slots are, the encoding's bytes and where it starts
    /// in them. ``none`` stands for no page: no slot matches.
    private struct OldPage {
        var buttons: [DeckButton?]
        var slots: PageSlots
        var json: [UInt8]
        var start: Int

        static let none = OldPage(buttons: [], slots: PageSlots(), json: [], start: 0)
    }

    /// `page` as ``JSONWriter/write(_:)-(DeckPage)`` writes it, copying the
    /// bytes of each button that is still in its slot in `old`; returns where
    /// its slots are.
    ///
    /// Only the same slot is looked at: finding a moved button in the other
    /// slots compares unequal names, and comparing non-ASCII strings
    /// (canonical equivalence) cost more than encoding the button.
    private static func write(_ page: DeckPage, to writer: inout JSONWriter, reusing old: OldPage) -> PageSlots {
        var slots = PageSlots()
        slots.ends.reserveCapacity(page.buttons.count)
        writer.beginObject()
        // After the brace: `beginObject` wrote the comma before it, if any.
        let pageStart = writer.bytes.count - 1
        writer.field("title", page.title)
        writer.key("buttons")
        writer.beginArray()
        slots.first = writer.bytes.count - pageStart
        for slot in page.buttons.indices {
            // An untouched slot of a page the edit copied has the same bits.
            if DeckPage.surelyHoldEqual(page.buttons, old.buttons, at: slot) {
                writer.value(encoded: old.slots.bytes(slot, in: old.json, pageAt: old.start))
            } else {
                writer.write(page.buttons[slot])
            }
            slots.ends.append(writer.bytes.count - pageStart)
        }
        writer.endArray()
        writer.endObject()
        return slots
    }

    /// The JSON of what `slot` holds (a button's object or `null`), as
    /// ``json`` has it; nil for a slot outside the layout, or when the JSON
    /// has `null` for a number it could not hold (its bytes are then not
    /// those of the value).
    package func json(ofSlot slot: DeckSlot) -> ArraySlice<UInt8>? {
        guard nonFiniteNumber == nil, (0..<pageEnds.count).contains(slot.page),
              (0..<layout.slotsPerPage).contains(slot.index) else { return nil }
        return slots[slot.page].bytes(slot.index, in: json, pageAt: start(ofPage: slot.page))
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
