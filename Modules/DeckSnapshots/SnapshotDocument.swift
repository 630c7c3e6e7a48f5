import DeckModel
import Foundation

/// Why a snapshot's JSON was not accepted, as the tail of a notice sentence.
struct DocumentProblem: Error {
    var reason: String
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
    /// What separates the header from the layout. A `"` inside a JSON string is
    /// always escaped, so these bytes cannot occur inside the header's strings.
    static let layoutMarker = Array(#","layout":"#.utf8)

    /// The document's JSON bytes: the header fields by hand, then the layout.
    static func encode(_ header: SnapshotHeader, layout: DeckLayout) throws(SnapshotError) -> [UInt8] {
        var json = LayoutJSONWriter(capacity: 512 + LayoutJSONWriter.estimatedSize(of: layout))
        json.raw(#"{"format":"deck-snapshot","version":1,"profile":"#)
        json.string(header.profile)
        json.raw(#","generation":\#(header.generation),"revision":\#(header.revision),"time":""#)
        json.raw(SnapshotTime.format(header.time) + #"","reason":"#)
        json.string(header.reason)
        if let source = header.source {
            json.raw(#","source":{"file":"#)
            json.string(source.file)
            json.raw(#","crc32":"\#(source.crc32Hex)","bytes":\#(source.bytes)}"#)
        }
        json.raw(#","layout":"#)
        try json.write(layout)
        json.raw("}\n")
        return json.bytes
    }

    /// Reads a whole document and checks it belongs where it was found.
    static func decode(_ json: [UInt8], profile: String, generation: Int) throws(DocumentProblem) -> (SnapshotHeader, DeckLayout) {
        let (header, layout) = try read(json, withLayout: true)
        guard let layout else { throw DocumentProblem(reason: "field 'layout' is missing") }
        try check(header, profile: profile, generation: generation)
        return (header, layout)
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

    /// Format and version are checked as soon as they are read (they come
    /// first), so a newer or foreign document gets a sentence about that rather
    /// than about some field deep inside its layout.
    private static func read(_ json: [UInt8], withLayout: Bool) throws(DocumentProblem) -> (SnapshotHeader, DeckLayout?) {
        try JSONReader.read(json) { reader throws(DocumentProblem) in
            var format: String?
            var version: Int?
            var numbers: [String: Int] = [:]
            var texts: [String: String] = [:]
            var source: SnapshotSource?
            var layout: DeckLayout?
            try reader.object { reader, key throws(DocumentProblem) in
                switch key {
                case "format":
                    let value = try reader.string()
                    guard value == Self.format else {
                        throw DocumentProblem(reason: "its format is \(SnapshotError.quoted(value)), not 'deck-snapshot'")
                    }
                    format = value
                case "version":
                    let value = try reader.int()
                    guard value == Self.version else {
                        throw DocumentProblem(reason: "it is version \(value) of the snapshot format; this deckd reads version 1")
                    }
                    version = value
                case "generation", "revision": numbers[key] = try reader.int()
                case "profile", "time", "reason": texts[key] = try reader.string()
                case "source": source = reader.null() ? nil : try reader.source()
                case "layout" where withLayout: layout = try reader.layout()
                default: try reader.skip()
                }
            }
            guard format != nil else { throw reader.missing("format") }
            guard version != nil else { throw reader.missing("version") }
            for key in ["profile", "time", "reason"] where texts[key] == nil { throw reader.missing(key) }
            for key in ["generation", "revision"] where numbers[key] == nil { throw reader.missing(key) }
            let timeText = texts["time"] ?? ""
            guard let time = SnapshotTime.parse(timeText) else {
                throw DocumentProblem(reason: "its time \(SnapshotError.quoted(timeText)) is not ISO 8601 UTC")
            }
            let header = SnapshotHeader(profile: texts["profile"] ?? "", generation: numbers["generation"] ?? 0,
                                        revision: numbers["revision"] ?? 0, time: time,
                                        reason: texts["reason"] ?? "", source: source)
            return (header, layout)
        }
    }
}

extension JSONReader {
    /// `{"file","crc32":"%08x","bytes"}`.
    fileprivate mutating func source() throws(DocumentProblem) -> SnapshotSource {
        var file: String?
        var crc: UInt32?
        var bytes: Int?
        try object { reader, key throws(DocumentProblem) in
            switch key {
            case "file": file = try reader.string()
            case "bytes": bytes = try reader.int()
            case "crc32":
                let text = try reader.string()
                guard text.utf8.count == 8, text.utf8.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else {
                    throw DocumentProblem(reason: "its source crc32 \(SnapshotError.quoted(text)) is not 8 hex digits")
                }
                crc = value
            default: try reader.skip()
            }
        }
        guard let file else { throw missing("file") }
        guard let crc else { throw missing("crc32") }
        guard let bytes else { throw missing("bytes") }
        return SnapshotSource(file: file, crc32: crc, bytes: bytes)
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
