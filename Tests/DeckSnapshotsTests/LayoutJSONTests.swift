import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Testing

/// The snapshot document around DeckModel's JSON codec (whose own tests
/// compare it with `Codable`): what the store writes, and how it words what
/// it refuses to read.
@Suite("The snapshot document's JSON")
struct SnapshotJSONTests {
    static let header = SnapshotHeader(profile: "default", generation: 3, revision: 9, time: Date(timeIntervalSince1970: 0),
                                       reason: "moveButton", source: SnapshotSource(file: "d.yaml", crc32: 1, bytes: 2))

    /// A document with a valid header around `layout` (JSON text).
    static func document(layout: String, header: String = #""source":null,"#) -> [UInt8] {
        Array((#"{"format":"deck-snapshot","version":1,"profile":"default","generation":3,"revision":9,"#
            + #""time":"1970-01-01T00:00:00Z","reason":"r","# + header + #""layout":"# + layout + "}").utf8)
    }

    static func problem(_ bytes: [UInt8]) -> String? {
        do {
            _ = try SnapshotDocument.decode(bytes, profile: "default", generation: 3)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("the header first, in a fixed order, then the layout as the codec writes it")
    func shape() throws {
        let layout = try DeckLayout(slotsPerPage: 1, pages: [DeckPage(buttons: [DeckButton(name: "a", action: .open("~"))])])
        let text = String(decoding: try SnapshotDocument.encode(Self.header, layout: layout), as: UTF8.self)
        #expect(text == #"{"format":"deck-snapshot","version":1,"profile":"default","generation":3,"revision":9,"#
            + #""time":"1970-01-01T00:00:00Z","reason":"moveButton","source":{"file":"d.yaml","crc32":"00000001","bytes":2},"#
            + #""layout":{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"open":"~"}}]},{"buttons":[null]}]},"edits":[]}"# + "\n")
        #expect(try SnapshotDocument.decode(Array(text.utf8), profile: "default", generation: 3) == (Self.header, layout, []))
    }

    @Test("a layout already encoded is written as it is, and only for its own layout")
    func reusesEncodedLayouts() throws {
        var rng = SeededGenerator(seed: 77)
        let layout = RandomLayouts.layout(maxPages: 3, using: &rng)
        let encoded = EncodedLayout(layout)
        let plain = try SnapshotDocument.encode(Self.header, layout: layout)
        #expect(try SnapshotDocument.encode(Self.header, layout: layout, reusing: encoded) == plain)
        let other = sampleLayout(5)
        #expect(try SnapshotDocument.encode(Self.header, layout: other, reusing: encoded)
                == SnapshotDocument.encode(Self.header, layout: other))

        let sandbox = try Sandbox()
        let store = try sandbox.open()
        var entry = SnapshotEntry(profile: "default", revision: 1, reason: "load", source: nil, layout: encoded)
        #expect(entry == SnapshotEntry(profile: "default", revision: 1, reason: "load", source: nil, layout: layout, time: entry.time))
        try store.write(entry)
        entry.layout = other  // the bytes no longer match: the store must encode `other` itself
        entry.revision = 2
        try store.write(entry)
        #expect(try store.read(profile: "default", generation: 1).layout == layout)
        #expect(try store.read(profile: "default", generation: 2).layout == other)
    }

    @Test("a number JSON cannot hold is an encoding error, never a silent null in a snapshot")
    func infinity() throws {
        let layout = try DeckLayout(pages: [DeckPage(buttons: [
            DeckButton(name: "p", action: .plugin(id: "a", command: "b", settings: ["x": .double(.infinity)])),
        ])])
        #expect(throws: SnapshotError.encoding("inf cannot be written as JSON")) {
            try SnapshotDocument.encode(Self.header, layout: layout)
        }
        #expect(throws: SnapshotError.encoding("inf cannot be written as JSON")) {
            try SnapshotDocument.encode(Self.header, layout: layout, reusing: EncodedLayout(layout))
        }
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let entry = SnapshotEntry(profile: "default", revision: 1, reason: "load", source: nil, layout: layout)
        #expect(store.write([entry]).failure == .encoding("inf cannot be written as JSON"))
        #expect(sandbox.files().isEmpty)
    }

    @Test("damaged JSON and invalid layouts are reasons with a place, never a crash", arguments: [
        (#"{"pages":[],}"#, "its JSON does not parse (byte 164: expected a string key in an object)"),
        (#"{"pages":[01]}"#, "its JSON does not parse (byte 163: a number may not start with 0)"),
        (#"{"pages":[{"buttons":["#, "its JSON does not parse (byte 174: unexpected '}' where a value should start)"),
        (#"{"pages":[{"title":"\ud800","buttons":[]}]}"#, "its JSON does not parse (byte 178: a \\u escape holds half of a surrogate pair)"),
        (#"{"pages":[{"buttons":[{"name":tx}]}]}"#, "its JSON does not parse (byte 182: unexpected 't' where a value should start)"),
        (#"{"pages":"no"}"#, "field 'layout.pages' has the wrong type (it must be an array, not a string)"),
        (#"{"slotsPerPage":1.5,"pages":[]}"#, "field 'layout.slotsPerPage' has the wrong type (it must be an integer, not a number)"),
        (#"{"pages":[{"buttons":[{"name":"a"}]}]}"#, "field 'layout.pages[0].buttons[0].action' is missing"),
        (#"{"pages":[{"buttons":[{"name":"","action":{"open":"x"}}]}]}"#,
         "'layout.pages[0].buttons[0]' is invalid: a button needs a non-empty name"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"open":"x","run":"y"}}]}]}"#,
         "'layout.pages[0].buttons[0].action' is invalid: an action needs exactly one of run, open, page, profile, plugin (found run and open)"),
        (#"{"slotsPerPage":2,"pages":[{"buttons":[null]}]}"#, "'layout.pages[0]' is invalid: a page has 1 slots but pages hold 2"),
        (#"{"slotsPerPage":0,"pages":[]}"#, "'layout' is invalid: slotsPerPage must be between 1 and 256, not 0"),
        ("[]", "field 'layout' has the wrong type (it must be a layout object, not an array)"),
    ])
    func layoutProblems(layout: String, expected: String) {
        #expect(Self.problem(Self.document(layout: layout)) == expected)
    }

    @Test("what is wrong with the header is said in its own words", arguments: [
        (#""source":{"file":"d","crc32":"xyz","bytes":1},"#, "'source.crc32' is invalid: 'xyz' is not 8 hex digits"),
        (#""source":{"file":"d","bytes":1},"#, "field 'source.crc32' is missing"),
        (#""source":[],"#, "field 'source' has the wrong type (it must be an object with 'file', 'crc32' and 'bytes', not an array)"),
        (#""source":{"file":"d","crc32":"0000000A","bytes":1},"extra":[{}],"#, nil),
        (#""generation":7,"#, "it says generation 7 but is named 3"),
        (#""time":"yesterday","#, "its time 'yesterday' is not ISO 8601 UTC"),
        (#""version":2,"#, "it is version 2 of the snapshot format; this deckd reads version 1"),
    ] as [(String, String?)])
    func headerProblems(header: String, expected: String?) {
        #expect(Self.problem(Self.document(layout: #"{"pages":[]}"#, header: header)) == expected)
        #expect(Self.problem(Array("[1]".utf8)) == "it must be a JSON object, not an array")
        #expect(Self.problem(Array(#"{"format":"deck-snapshot"}"#.utf8)) == "field 'version' is missing")
    }

    @Test("plugin settings may nest as deep as the model allows; deeper is refused after the limit, never a stack overflow")
    func deepNesting() throws {
        func document(settings: String) -> [UInt8] {
            Self.document(layout: #"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"plugin":"p","command":"c","settings":{"x":"#
                + settings + "}}}]}]}")
        }
        let limit = DeckConstants.maximumSettingsDepth
        // The settings object and the arrays inside it: exactly the model's bound.
        let allowed = String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1)
        #expect(Self.problem(document(settings: allowed)) == nil)
        let reason = Self.problem(document(settings: "[" + allowed + "]"))
        #expect(reason?.hasPrefix("its JSON does not parse (byte ") == true)
        #expect(reason?.hasSuffix(": arrays and objects nest deeper than \(7 + limit) levels)") == true)
        #expect(Self.problem(document(settings: String(repeating: "[", count: 100_000)))?
                    .hasSuffix("nest deeper than \(7 + limit) levels)") == true)
    }

    @Test("invalid UTF-8 inside a string is a reason")
    func invalidUTF8() {
        let bytes = Self.document(layout: #"{"pages":[{"title":""#) + [0xC3, 0x28] + Array(#"","buttons":[]}]}"#.utf8)
        #expect(Self.problem(bytes) == "its JSON does not parse (byte 171: a string is not valid UTF-8)")
    }
}

@Suite("Damaged documents never crash the reader")
struct JSONFuzzTests {
    @Test("thousands of random byte edits of a real document: each reads or is refused, nothing else")
    func mutations() throws {
        var rng = SeededGenerator(seed: 0xF022)
        let layout = RandomLayouts.layout(maxPages: 3, using: &rng)
        let original = try SnapshotDocument.encode(SnapshotJSONTests.header, layout: layout)
        var refused = 0
        for _ in 0..<3000 {
            var bytes = original
            RandomEdits.apply(Int.random(in: 1...4, using: &rng), to: &bytes, using: &rng)
            do {
                let (read, _, _) = try SnapshotDocument.decode(bytes, profile: "default", generation: 3)
                #expect(read.generation == 3)
            } catch {
                #expect(!error.reason.isEmpty)
                refused += 1
            }
        }
        #expect(refused > 1000)
    }

    @Test("random damage to the gzip bytes: inflating refuses or succeeds, nothing else")
    func gzipMutations() throws {
        var rng = SeededGenerator(seed: 0x6219)
        let json = EncodedLayout(RandomLayouts.layout(maxPages: 3, using: &rng)).json
        let original = try ZlibCodec.gzip(json)
        #expect(try ZlibCodec.gunzip(original, limit: 1 << 20) == json)
        var refused = 0
        for _ in 0..<1000 {
            var bytes = original
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            if Bool.random(using: &rng) {
                bytes[at] ^= UInt8.random(in: 1...255, using: &rng)
            } else {
                bytes.removeSubrange(at...)
            }
            do {
                _ = try ZlibCodec.gunzip(bytes, limit: 1 << 20)
            } catch {
                refused += 1
            }
            _ = try? ZlibCodec.gunzipPrefix(bytes, before: SnapshotDocument.layoutMarker, limit: 1 << 16)
        }
        // The CRC-32 catches every change to the data; a flip in the header's
        // MTIME/XFL/OS bytes is the only harmless kind.
        #expect(refused > 950)
    }
}
