import DeckModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a snapshot's JSON was not accepted, as the tail of a notice sentence.
struct DocumentProblem: Error {
    var reason: String
}

extension DocumentProblem {
    /// A codec error worded for a notice: `field 'layout.pages[0].buttons[2].name' is missing`.
    init(_ error: JSONError) {
        let field = error.dottedPath
        switch error.problem {
        case let .syntax(reason, offset):
            self.init(reason: "its JSON does not parse (byte \(offset): \(reason))")
        case .missing:
            self.init(reason: "field '\(field)' is missing")
        case let .wrongType(expected, got):
            self.init(reason: field.isEmpty ? "it must be \(expected), not \(got)"
                                            : "field '\(field)' has the wrong type (it must be \(expected), not \(got))")
        case .malformed(let sentence), .invalid(let sentence):
            self.init(reason: field.isEmpty ? sentence : "'\(field)' is invalid: \(sentence)")
        }
    }
}

/// Everything in a snapshot document but the layout.
struct SnapshotHeader: Hashable {
    var profile: String
    var generation: Int
    var revision: Int
    var time: Date
    var reason: String
    var source: SnapshotSource?

    func info(bytes: Int) -> SnapshotInfo {
        SnapshotInfo(profile: profile, generation: generation, revision: revision, time: time,
                     reason: reason, source: source, bytes: bytes)
    }
}

/// The JSON document of PROFILE.md §6 inside each snapshot file.
///
/// The header fields are written in a fixed order before the layout, so a
/// listing can read them by inflating only the first few hundred bytes of a
/// file (`layoutMarker` ends the header).
enum SnapshotDocument {
    static let format = "deck-snapshot"
    static let version = 1
    /// The largest revision a snapshot may carry: 2^53 - 1, the largest
    /// integer a JSON number holds exactly for every client (JavaScript
    /// included). A host counts one per change, so it never gets there; a
    /// file that says more is damaged.
    package static let maximumRevision = (1 << 53) - 1
    /// What separates the header from the layout. A `"` inside a JSON string is
    /// always escaped, so these bytes cannot occur inside the header's strings.
    static let layoutMarker = Array(#","layout":"#.utf8)
    /// What a record whose edits continue an earlier one's has after its
    /// layout. A key inside the layout (a plugin setting's) could spell it
    /// too, so finding it only says the document must be read whole.
    static let editsAfterMarker = Array(#","editsAfter":"#.utf8)
    /// How deep a document may nest: its own seven levels (document, layout,
    /// pages, page, buttons, button, action), then the model's bound for plugin
    /// settings (their object included). Deeper is refused by the parser, a
    /// bound on what a hostile file can make the reader do.
    static let maximumDepth = 7 + DeckConstants.maximumSettingsDepth

    /// How a document's client edits are written (PROFILE.md §5).
    enum EditsForm {
        /// `"edits":[…]`, every edit: a file, and a journal record that starts a chain.
        case whole
        /// `"editsAfter":G,"editsAdded":[…]`: the edits of generation `G` (the
        /// record before it in the same segment), then the edits from index
        /// `count` on — a version-3 record whose edits extend the last one's
        /// (docs/snapshots.md, "Records that add edits").
        case after(generation: Int, count: Int)
    }

    /// A document's client edits as read: whole, or continuing another record's.
    enum ReadEdits: Equatable {
        /// `edits`, or nil for a document from before edits were recorded.
        case whole([DeckEdit]?)
        /// The edits of generation `generation`, then `added`.
        case after(generation: Int, added: [DeckEdit])
    }

    /// The document's JSON bytes: the header fields, then the layout (copied
    /// from `encoded` when that is its encoding). A number JSON cannot hold
    /// is an error, never a silent `null` in a file the host resumes from.
    /// `cache` holds the JSON of the edits the last whole document of this
    /// profile carried (``EditJSONCache``); `form` says how the edits go.
    static func encode(_ header: SnapshotHeader, layout: DeckLayout, edits: [DeckEdit] = [],
                       reusing encoded: EncodedLayout? = nil, cache: inout EditJSONCache,
                       form: EditsForm = .whole) throws(SnapshotError) -> [UInt8] {
        // Room for the header, the layout, the edits as big as last time and
        // one more, and the line's end: a buffer that grows copies it all.
        let editBytes = if case .whole = form { cache.lastBytes } else { 0 }
        var json = JSONWriter(capacity: 512 + (encoded?.json.count ?? JSONWriter.estimatedSize(of: layout))
                                  + editBytes + (edits.isEmpty ? 0 : 1024))
        json.beginObject()
        json.field("format", format)
        json.field("version", version)
        json.field("profile", header.profile)
        json.field("generation", header.generation)
        json.field("revision", header.revision)
        json.field("time", SnapshotTime.format(header.time))
        json.field("reason", header.reason)
        if let source = header.source {
            json.key("source")
            json.beginObject()
            json.field("file", source.file)
            json.field("crc32", source.crc32Hex)
            json.field("bytes", source.bytes)
            json.endObject()
        }
        json.key("layout")
        json.write(layout, reusing: encoded)
        // After the layout, so that a listing, which inflates only the
        // header, never reads them; always written (`[]` too), so that a
        // reader tells "no edits" from a snapshot older than them.
        switch form {
        case .whole:
            json.key("edits")
            cache.write(edits, to: &json, reusing: encoded)
        case let .after(generation, count):
            json.field("editsAfter", generation)
            json.field("editsAdded", Array(edits[min(count, edits.count)...])) { writer, edit in writer.write(edit, reusing: encoded) }
        }
        json.endObject()
        if let number = json.nonFiniteNumber { throw .encoding("\(number) cannot be written as JSON") }
        return json.line()
    }

    /// The same without a cache (every edit encoded).
    static func encode(_ header: SnapshotHeader, layout: DeckLayout, edits: [DeckEdit] = [],
                       reusing encoded: EncodedLayout? = nil) throws(SnapshotError) -> [UInt8] {
        var cache = EditJSONCache()
        return try encode(header, layout: layout, edits: edits, reusing: encoded, cache: &cache)
    }

    /// Reads a whole document and checks it belongs where it was found. A
    /// file's document carries its edits whole.
    static func decode(_ json: [UInt8], profile: String, generation: Int) throws(DocumentProblem) -> (SnapshotHeader, DeckLayout, [DeckEdit]?) {
        let (header, layout, edits) = try decodeRecord(json, profile: profile, generation: generation)
        guard case .whole(let whole) = edits else {
            throw DocumentProblem(reason: "it continues the edits of another generation ('editsAfter'), which only a journal record may")
        }
        return (header, layout, whole)
    }

    /// Reads a journal record's document: its edits may continue those of
    /// an earlier generation (``EditsForm/after(generation:count:)``), which
    /// must be below its own.
    static func decodeRecord(_ json: [UInt8], profile: String,
                             generation: Int) throws(DocumentProblem) -> (SnapshotHeader, DeckLayout, ReadEdits) {
        let (header, body) = try read(json, withLayout: true)
        guard let body else { throw DocumentProblem(reason: "field 'layout' is missing") }
        try check(header, profile: profile, generation: generation)
        if case .after(let earlier, _) = body.edits, earlier >= generation || earlier < 1 {
            throw DocumentProblem(reason: "its edits continue generation \(earlier), which is not before it")
        }
        return (header, body.layout, body.edits)
    }

    /// Reads the header from the bytes before `layoutMarker`.
    static func decodeHeader(prefix: [UInt8], profile: String, generation: Int) throws(DocumentProblem) -> SnapshotHeader {
        let header = try read(prefix + [UInt8(ascii: "}")], withLayout: false).0
        try check(header, profile: profile, generation: generation)
        return header
    }

    private static func check(_ header: SnapshotHeader, profile: String, generation: Int) throws(DocumentProblem) {
        guard header.generation == generation else {
            throw DocumentProblem(reason: "it says generation \(header.generation) but is named \(generation)")
        }
        guard header.profile == profile else {
            throw DocumentProblem(reason: "it belongs to profile \(SnapshotError.quoted(header.profile))")
        }
    }

    /// Format and version are checked first, so a newer or foreign document
    /// gets a sentence about that rather than about some field deep inside
    /// its layout.
    private static func read(_ json: [UInt8], withLayout: Bool) throws(DocumentProblem) -> (SnapshotHeader, (layout: DeckLayout, edits: ReadEdits)?) {
        do throws(JSONError) {
            return try JSONValue.read(json, maximumDepth: maximumDepth, noun: "the document") { root throws(JSONError) in
                let fields = try JSONFieldReader(root, expected: "a JSON object")
                let format = try fields.string("format")
                guard format == Self.format else {
                    throw .invalid("its format is \(SnapshotError.quoted(format)), not 'deck-snapshot'")
                }
                let version = try fields.int("version")
                guard version == Self.version else {
                    throw .invalid("it is version \(version) of the snapshot format; this deckd reads version 1")
                }
                let profile = try fields.string("profile")
                let timeText = try fields.string("time")
                let reason = try fields.string("reason")
                let generation = try fields.int("generation")
                let revision = try fields.int("revision")
                // A file's revision is untrusted: one near Int.max traps the host's next `+ 1`.
                guard revision >= 0 else { throw .invalid("its revision \(revision) is negative") }
                guard revision <= Self.maximumRevision else {
                    throw .invalid("its revision \(revision) is larger than \(Self.maximumRevision)")
                }
                guard let time = SnapshotTime.parse(timeText) else {
                    throw .invalid("its time \(SnapshotError.quoted(timeText)) is not ISO 8601 UTC")
                }
                let source = try fields.decodeIfPresent("source") { value throws(JSONError) in try SnapshotSource(json: value) }
                let header = SnapshotHeader(profile: profile, generation: generation, revision: revision, time: time,
                                            reason: reason, source: source)
                guard withLayout else { return (header, nil) }
                let edits = try fields.decodeIfPresent("edits") { value throws(JSONError) in
                    try JSONFieldReader.array(value) { value throws(JSONError) in try DeckEdit(json: value) }
                }
                let read: ReadEdits
                if let earlier = try fields.decodeIfPresent("editsAfter", { value throws(JSONError) in try JSONFieldReader.int(value) }) {
                    guard edits == nil else { throw .invalid("it has both 'edits' and 'editsAfter'") }
                    read = .after(generation: earlier, added: try fields.decode("editsAdded", expected: "an array of edits") {
                        value throws(JSONError) in try JSONFieldReader.array(value) { value throws(JSONError) in try DeckEdit(json: value) }
                    })
                } else {
                    read = .whole(edits)
                }
                return (header, (try fields.layout("layout"), read))
            }
        } catch {
            throw DocumentProblem(error)
        }
    }
}

extension SnapshotSource {
    /// `{"file","crc32":"%08x","bytes"}`.
    fileprivate init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: "an object with 'file', 'crc32' and 'bytes'")
        let file = try fields.string("file")
        let crc = try fields.decode("crc32", expected: "8 hex digits") { value throws(JSONError) in
            let text = try JSONFieldReader.string(value)
            guard text.utf8.count == 8, text.utf8.allSatisfy(\.isHexDigit), let crc = UInt32(text, radix: 16) else {
                throw .invalid("\(SnapshotError.quoted(text)) is not 8 hex digits")
            }
            return crc
        }
        self.init(file: file, crc32: crc, bytes: try fields.int("bytes"))
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
