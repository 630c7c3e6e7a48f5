// A recorded edit as snapshots write it (PROFILE.md §5):
// {"request":"moveButton","slotsPerPage":12,
//  "slots":[{"page":0,"index":1,"before":{…},"after":null},…]}
// An empty side is `null`, never left out, so a reader cannot mistake an
// older writer's missing field for "empty".

extension JSONWriter {
    /// One recorded edit.
    package mutating func write(_ edit: DeckEdit) {
        beginObject()
        field("request", edit.kind.rawValue)
        field("slotsPerPage", edit.slotsPerPage)
        field("slots", edit.changes) { json, change in
            json.beginObject()
            json.field("page", change.slot.page)
            json.field("index", change.slot.index)
            json.key("before")
            json.write(change.before)
            json.key("after")
            json.write(change.after)
            json.endObject()
        }
        endObject()
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
