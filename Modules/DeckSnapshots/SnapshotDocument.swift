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
/// The header fields are written by hand, in a fixed order and before the
/// layout, so a listing can read them by inflating only the first few hundred
/// bytes of a file (`layoutMarker` ends the header). The layout itself goes
/// through `JSONEncoder`, the same Codable form as the wire protocol.
enum SnapshotDocument {
    static let format = "deck-snapshot"
    static let version = 1
    /// What separates the header from the layout. A `"` inside a JSON string is
    /// always escaped, so these bytes cannot occur inside the header's strings.
    static let layoutMarker = Array(#","layout":"#.utf8)

    /// The document as three parts to compress in a row: header, layout, closing brace.
    static func encode(_ header: SnapshotHeader, layout: DeckLayout) throws(SnapshotError) -> [Data] {
        var text = #"{"format":"deck-snapshot","version":1,"profile":"#
        appendString(header.profile, to: &text)
        text += #","generation":\#(header.generation),"revision":\#(header.revision),"time":""#
        text += SnapshotTime.format(header.time) + #"","reason":"#
        appendString(header.reason, to: &text)
        if let source = header.source {
            text += #","source":{"file":"#
            appendString(source.file, to: &text)
            text += #","crc32":"\#(source.crc32Hex)","bytes":\#(source.bytes)}"#
        }
        text += #","layout":"#
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let layoutJSON: Data
        do {
            layoutJSON = try encoder.encode(layout)
        } catch {
            throw .encoding(String(describing: error))
        }
        return [Data(text.utf8), layoutJSON, Data("}\n".utf8)]
    }

    /// Reads a whole document and checks it belongs where it was found.
    static func decode(_ json: [UInt8], profile: String, generation: Int) throws(DocumentProblem) -> (SnapshotHeader, DeckLayout) {
        let document: Full
        do {
            document = try JSONDecoder().decode(Full.self, from: Data(json))
        } catch let problem as DocumentProblem {
            throw problem
        } catch {
            throw DocumentProblem(reason: describe(error))
        }
        try check(document.header, profile: profile, generation: generation)
        return (document.header, document.layout)
    }

    /// Reads the header from the bytes before `layoutMarker`.
    static func decodeHeader(prefix: [UInt8], profile: String, generation: Int) throws(DocumentProblem) -> SnapshotHeader {
        let header: SnapshotHeader
        do {
            header = try JSONDecoder().decode(HeaderOnly.self, from: Data(prefix + Array("}".utf8))).header
        } catch let problem as DocumentProblem {
            throw problem
        } catch {
            throw DocumentProblem(reason: describe(error))
        }
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

    /// Appends `value` as a JSON string literal.
    static func appendString(_ value: String, to text: inout String) {
        text.unicodeScalars.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text.unicodeScalars.append("\"")
    }

    /// A decoding failure as a short phrase ("field 'revision' is missing").
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "its JSON does not parse (\(error))" }
        func at(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text
        }
        switch error {
        case let .keyNotFound(key, context):
            let parent = at(context.codingPath)
            return "field '\(parent.isEmpty ? "" : parent + ".")\(key.stringValue)' is missing"
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "field '\(at(context.codingPath))' has the wrong type"
        case let .dataCorrupted(context) where context.codingPath.isEmpty:
            return "its JSON does not parse"
        case let .dataCorrupted(context):
            return "'\(at(context.codingPath))' is invalid: \(context.debugDescription)"
        @unknown default:
            return "its JSON does not parse"
        }
    }

    private enum Key: String, CodingKey {
        case format, version, profile, generation, revision, time, reason, source, layout
        case file, crc32, bytes
    }

    /// Decodes format and version first, so a newer or foreign document gets
    /// a sentence about that rather than about some field deep inside it.
    private static func header(from decoder: any Decoder) throws -> SnapshotHeader {
        let container = try decoder.container(keyedBy: Key.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == Self.format else {
            throw DocumentProblem(reason: "its format is \(SnapshotError.quoted(format)), not 'deck-snapshot'")
        }
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.version else {
            throw DocumentProblem(reason: "it is version \(version) of the snapshot format; this deckd reads version 1")
        }
        let timeText = try container.decode(String.self, forKey: .time)
        guard let time = SnapshotTime.parse(timeText) else {
            throw DocumentProblem(reason: "its time \(SnapshotError.quoted(timeText)) is not ISO 8601 UTC")
        }
        var source: SnapshotSource?
        if try container.contains(.source) && !container.decodeNil(forKey: .source) {
            let nested = try container.nestedContainer(keyedBy: Key.self, forKey: .source)
            let crcText = try nested.decode(String.self, forKey: .crc32)
            guard crcText.count == 8, let crc = UInt32(crcText, radix: 16) else {
                throw DocumentProblem(reason: "its source crc32 \(SnapshotError.quoted(crcText)) is not 8 hex digits")
            }
            source = SnapshotSource(file: try nested.decode(String.self, forKey: .file), crc32: crc,
                                    bytes: try nested.decode(Int.self, forKey: .bytes))
        }
        return SnapshotHeader(
            profile: try container.decode(String.self, forKey: .profile),
            generation: try container.decode(Int.self, forKey: .generation),
            revision: try container.decode(Int.self, forKey: .revision),
            time: time,
            reason: try container.decode(String.self, forKey: .reason),
            source: source)
    }

    private struct HeaderOnly: Decodable {
        var header: SnapshotHeader
        init(from decoder: any Decoder) throws { header = try SnapshotDocument.header(from: decoder) }
    }

    private struct Full: Decodable {
        var header: SnapshotHeader
        var layout: DeckLayout
        init(from decoder: any Decoder) throws {
            header = try SnapshotDocument.header(from: decoder)
            layout = try decoder.container(keyedBy: Key.self).decode(DeckLayout.self, forKey: .layout)
        }
    }
}
