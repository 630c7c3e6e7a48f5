// A recorded edit as snapshots write it (PROFILE.md §5):
// {"request":"moveButton","slotsPerPage":12,
//  "slots":[{"page":0,"index":1,"before":{…},"after":null},…]}
// An empty side is `null`, never left out, so a reader cannot mistake an
// older writer's missing field for "empty".

extension JSONWriter {
    /// One recorded edit.
    package mutating func write(_ edit: DeckEdit) {
        write(edit, reusing: nil)
    }

    /// One recorded edit, each side of a slot copied from `encoded` where one
    /// of the edit's slots there holds that very button: a move's four sides
    /// are the two buttons of the layout after it, which the host has
    /// encoded already (the buttons' JSON was ~11 K instructions of each
    /// record on the disk thread; docs/performance.md, issue 28).
    package mutating func write(_ edit: DeckEdit, reusing encoded: EncodedLayout?) {
        beginObject()
        field("request", edit.kind.rawValue)
        field("slotsPerPage", edit.slotsPerPage)
        field("slots", edit.changes) { json, change in
            json.beginObject()
            json.field("page", change.slot.page)
            json.field("index", change.slot.index)
            json.key("before")
            json.write(change.before, foundIn: encoded, at: edit.changes)
            json.key("after")
            json.write(change.after, foundIn: encoded, at: edit.changes)
            json.endObject()
        }
        endObject()
    }

    /// `button`, as the bytes of the first of `changes`' slots in `encoded`
    /// that holds an equal one (equal buttons encode alike), else encoded.
    private mutating func write(_ button: DeckButton?, foundIn encoded: EncodedLayout?, at changes: [DeckEdit.SlotChange]) {
        if let button, let encoded {
            let layout = encoded.layout
            for change in changes where change.slot.page < layout.pages.count && change.slot.index < layout.slotsPerPage {
                // Unwrapped before `==`: comparing two optionals copies both.
                guard let there = layout.pages[change.slot.page].buttons[change.slot.index], there == button,
                      let bytes = encoded.json(ofSlot: change.slot) else { continue }
                value(encoded: bytes)
                return
            }
        }
        write(button)
    }
}

extension DeckEdit {
    /// Reads what ``JSONWriter/write(_:)-(DeckEdit)`` wrote; every button is validated.
    package init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: "an edit object")
        let kind = try fields.decode("request", expected: "a request type") { value throws(JSONError) in
            try JSONFieldReader.oneOf(value, Kind.self)
        }
        let slotsPerPage = try fields.int("slotsPerPage")
        guard (1...DeckConstants.maximumSlotsPerPage).contains(slotsPerPage) else {
            throw .invalid("slotsPerPage must be between 1 and \(DeckConstants.maximumSlotsPerPage), not \(slotsPerPage)")
        }
        let changes = try fields.array("slots", of: "slot changes") { value throws(JSONError) in
            let slot = try JSONFieldReader(value, expected: "a slot change object")
            let page = try slot.int("page")
            let index = try slot.int("index")
            guard (0..<DeckConstants.maximumPages).contains(page), (0..<slotsPerPage).contains(index) else {
                throw .invalid("slot \(page)/\(index) is outside a layout of \(slotsPerPage) slots per page")
            }
            return SlotChange(slot: DeckSlot(page: page, index: index), before: try slot.buttonIfPresent("before"),
                              after: try slot.buttonIfPresent("after"))
        }
        self.init(kind: kind, slotsPerPage: slotsPerPage, changes: changes)
    }
}
