import DeckModel

/// The JSON of each edit one profile's last generation carried, so the next
/// generation copies it instead of encoding it again.
///
/// Why: every generation carries all the edits since the file was loaded (up
/// to ``EditRebase/foldingThreshold``), each with both sides of its slots, so
/// they are most of a document (13.8 KB around a 1.9 KB layout in
/// the edit bench), and encoding them again on every edit was a quarter of
/// deckd's instructions per edit (docs/performance.md, issue 28). A new
/// generation's edits are the last one's plus its own, so all but one are
/// found at the same place. Comparing an edit is far cheaper than encoding
/// it: the host passes the same values along, whose strings share storage.
struct EditJSONCache {
    private var edits: [DeckEdit] = []
    private var encoded: [(json: [UInt8], lost: Double?)] = []
    /// The bytes of the last array written, a good guess for the next:
    /// the document's buffer is made that big once instead of growing.
    private(set) var lastBytes = 2

    /// Writes `edits` as a JSON array (after a key), reusing the bytes of each
    /// edit that is the one at the same place last time, and remembers them;
    /// a new edit's buttons are copied from `layout` where it has them.
    mutating func write(_ edits: [DeckEdit], to writer: inout JSONWriter, reusing layout: EncodedLayout? = nil) {
        let start = writer.bytes.count
        defer { lastBytes = writer.bytes.count - start }
        writer.beginArray()
        for (index, edit) in edits.enumerated() {
            if index < self.edits.count, self.edits[index] == edit {
                writer.value(encoded: encoded[index].json, nonFiniteNumber: encoded[index].lost)
                continue
            }
            var one = JSONWriter(capacity: 256)
            one.write(edit, reusing: layout)
            let entry = (json: one.bytes, lost: one.nonFiniteNumber)
            if index < self.edits.count {
                self.edits[index] = edit
                encoded[index] = entry
            } else {
                self.edits.append(edit)
                encoded.append(entry)
            }
            writer.value(encoded: entry.json, nonFiniteNumber: entry.lost)
        }
        if self.edits.count > edits.count {
            self.edits.removeLast(self.edits.count - edits.count)
            encoded.removeLast(encoded.count - edits.count)
        }
        writer.endArray()
    }
}
