import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Testing

@Suite("The snapshot's own layout JSON writer")
struct LayoutJSONTests {
    /// JSON text as a comparable value (NSNumber compares 600 and 600.0 equal, as JSON does).
    func tree(_ bytes: some DataProtocol) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test("same JSON as JSONEncoder and DeckModel's Codable, on random layouts", arguments: 0..<40)
    func matchesCodable(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9)
        let layout = RandomLayouts.layout(maxPages: 6, using: &rng)
        let fast = try LayoutJSONWriter.encode(layout)
        #expect(try JSONDecoder().decode(DeckLayout.self, from: Data(fast)) == layout)
        #expect(try tree(fast) == tree(JSONEncoder().encode(layout)))
    }

    @Test("control characters, quotes, backslashes, emoji and every action field")
    func awkward() throws {
        let strange = "q\"b\\s/\u{0}\u{1}\u{1F}\u{7F}\n\r\t é 🎙️ \u{2028}"
        let layout = try DeckLayout(slotsPerPage: 4, pages: [DeckPage(title: strange, buttons: [
            DeckButton(name: strange, icon: strange, action: .run(command: strange, cwd: strange, timeout: 2.5)),
            DeckButton(name: "t", action: .run(command: "x", timeout: 600)),
            DeckButton(name: "p", action: .plugin(id: strange, command: strange, settings: [
                strange: .array([.null, .bool(true), .int(-7), .double(0.1), .double(1e-5), .double(3e20), .string(strange)]),
                "o": .object(["k": .object([:])]),
            ])),
            DeckButton(name: "n", action: .page(.number(3))),
        ])])
        let fast = try LayoutJSONWriter.encode(layout)
        #expect(try JSONDecoder().decode(DeckLayout.self, from: Data(fast)) == layout)
        #expect(try tree(fast) == tree(JSONEncoder().encode(layout)))
    }

    @Test("a number JSON cannot hold is an encoding error, as with JSONEncoder")
    func infinity() throws {
        let layout = try DeckLayout(pages: [DeckPage(buttons: [
            DeckButton(name: "p", action: .plugin(id: "a", command: "b", settings: ["x": .double(.infinity)])),
        ])])
        #expect(throws: SnapshotError.encoding("inf cannot be written as JSON")) { try LayoutJSONWriter.encode(layout) }
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let entry = SnapshotEntry(profile: "default", revision: 1, reason: "load", source: nil, layout: layout)
        #expect(store.write([entry]).failure == .encoding("inf cannot be written as JSON"))
        #expect(sandbox.files().isEmpty)
    }
}

@Suite("The snapshot's own JSON reader")
struct JSONReaderTests {
    func readLayout(_ text: String) throws(DocumentProblem) -> DeckLayout {
        try JSONReader.read(Array(text.utf8)) { reader throws(DocumentProblem) in try reader.layout() }
    }

    func problem(_ text: String) -> String? {
        do {
            _ = try readLayout(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("reads what JSONEncoder writes, to the same layout", arguments: 0..<40)
    func readsCodable(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0xC0DE)
        let layout = RandomLayouts.layout(maxPages: 6, using: &rng)
        let json = String(decoding: try JSONEncoder().encode(layout), as: UTF8.self)
        #expect(try readLayout(json) == layout)
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        #expect(try readLayout(String(decoding: try pretty.encode(layout), as: UTF8.self)) == layout)
    }

    @Test("escapes, surrogate pairs, null optionals and unknown keys, as Codable reads them")
    func details() throws {
        let text = #"""
        {"slotsPerPage":2,"extra":[1,{"x":null}],"pages":[{"title":null,"buttons":[
          {"name":"\u00e9\ud83c\udf99 \"q\" \\ \/","icon":null,"future":true,
           "action":{"run":"ls","cwd":null,"timeout":5,"command":42}},
          {"name":"p","action":{"plugin":"a","command":"b","settings":{"n":-1.5e2,"i":7,"l":[true,false,null]}}}]}]}
        """#
        let layout = try readLayout(text)
        #expect(layout.pages[0].title == nil)
        #expect(layout.pages[0].buttons[0] == DeckButton(name: "é🎙 \"q\" \\ /", action: .run(command: "ls", timeout: 5)))
        #expect(layout.pages[0].buttons[1]?.action == .plugin(id: "a", command: "b", settings: [
            "n": .double(-150), "i": .int(7), "l": .array([.bool(true), .bool(false), .null]),
        ]))
        #expect(layout.pages.count == 2)
    }

    @Test("malformed JSON and invalid layouts are problems with a place, never a crash", arguments: [
        (#"{"pages":[],}"#, "its JSON does not parse (a key expected at byte 12)"),
        (#"{"pages":[01]}"#, "its JSON does not parse (a malformed number at byte 12)"),
        (#"{"pages":[{"buttons":["#, "its JSON does not parse (a value expected at byte 22)"),
        ("{\"pages\":[{\"title\":\"a\u{1}\",\"buttons\":[]}]}", "its JSON does not parse (a control character inside a string at byte 21)"),
        (#"{"pages":[{"title":"\ud800","buttons":[]}]}"#, "its JSON does not parse (an unpaired surrogate at byte 26)"),
        (#"{"pages":[]} x"#, "its JSON does not parse (nothing after the end of the document at byte 13)"),
        (#"{"pages":"no"}"#, "field 'pages' has the wrong type"),
        (#"{"slotsPerPage":1.5,"pages":[]}"#, "field 'slotsPerPage' has the wrong type"),
        (#"{"pages":[{"buttons":[{"name":"a"}]}]}"#, "field 'pages[0].buttons[0].action' is missing"),
        (#"{"pages":[{"buttons":[{"name":"","action":{"open":"x"}}]}]}"#, "'pages[0].buttons[0]' is invalid: a button needs a non-empty name"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"open":"x","run":"y"}}]}]}"#,
         "'pages[0].buttons[0].action' is invalid: action needs exactly one of run, open, page, profile, plugin (found open and run)"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"run":"y","timeout":"5"}}]}]}"#,
         "field 'pages[0].buttons[0].action.timeout' has the wrong type"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"plugin":"y"}}]}]}"#,
         "field 'pages[0].buttons[0].action.command' is missing"),
        (#"{"slotsPerPage":2,"pages":[{"buttons":[null]}]}"#, "'' is invalid: page 0 has 1 slots but pages hold 2"),
        (#"{"slotsPerPage":0,"pages":[]}"#, "'' is invalid: slotsPerPage must be between 1 and 256, not 0"),
    ])
    func problems(text: String, expected: String) {
        #expect(problem(text) == expected)
    }

    @Test("a value of the wrong kind that is not JSON either is a syntax problem", arguments: [
        (#"{"pages":[{"buttons":[{"name":tx}]}]}"#, "its JSON does not parse (a value expected at byte 30)"),
        (#"{"pages":[{"buttons":[{"name":nul}]}]}"#, "its JSON does not parse (a value expected at byte 30)"),
        (#"{"slotsPerPage":fals,"pages":[]}"#, "its JSON does not parse (a value expected at byte 16)"),
        (#"{"slotsPerPage":-,"pages":[]}"#, "its JSON does not parse (a malformed number at byte 17)"),
        (#"{"slotsPerPage":true,"pages":[]}"#, "field 'slotsPerPage' has the wrong type"),
    ])
    func notJSONAtAll(text: String, expected: String) {
        #expect(problem(text) == expected)
    }

    @Test("plugin settings nested past the limit are refused, not a stack overflow")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000)
        let text = #"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"plugin":"p","command":"c","settings":{"x":"#
            + deep + "}}}]}]}"
        #expect(problem(text)?.hasSuffix("is invalid: nested more than 256 deep") == true)
    }

    @Test("invalid UTF-8 inside a string is a problem")
    func invalidUTF8() {
        let bytes = Array(#"{"pages":[{"title":""#.utf8) + [0xC3, 0x28] + Array(#"","buttons":[]}]}"#.utf8)
        #expect(throws: DocumentProblem.self) {
            try JSONReader.read(bytes) { reader throws(DocumentProblem) in try reader.layout() }
        }
    }
}

@Suite("Damaged documents never crash the reader")
struct JSONFuzzTests {
    @Test("thousands of random byte edits of a real document: each reads or is refused, nothing else")
    func mutations() throws {
        var rng = SeededGenerator(seed: 0xF022)
        let layout = RandomLayouts.layout(maxPages: 3, using: &rng)
        let header = SnapshotHeader(profile: "default", generation: 3, revision: 9, time: Date(timeIntervalSince1970: 0),
                                    reason: "moveButton", source: SnapshotSource(file: "d.yaml", crc32: 1, bytes: 2))
        let original = try SnapshotDocument.encode(header, layout: layout)
        let alphabet = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn/u"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var refused = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[at] = alphabet.randomElement(using: &rng) ?? 0
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(alphabet.randomElement(using: &rng) ?? 0, at: at)
                default: bytes.removeSubrange(at...)
                }
                if bytes.isEmpty { break }
            }
            do {
                let (read, _) = try SnapshotDocument.decode(bytes, profile: "default", generation: 3)
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
        let layout = RandomLayouts.layout(maxPages: 3, using: &rng)
        let original = try ZlibCodec.gzip(try LayoutJSONWriter.encode(layout))
        #expect(try ZlibCodec.gunzip(original, limit: 1 << 20) == LayoutJSONWriter.encode(layout))
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
