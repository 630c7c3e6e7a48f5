import DeckModel
import DeckTestSupport
import Foundation
import Testing

/// The fast codec speaks exactly the JSON of DeckModel's `Codable`
/// conformances (PROTOCOL.md §3): each side reads what the other writes.
@Suite("JSON codec of the model: the same JSON as Codable")
struct JSONCodecAgreementTests {
    func layout(_ bytes: [UInt8]) throws(JSONError) -> DeckLayout {
        try readJSON(bytes, depth: 300) { value throws(JSONError) in try DeckLayout(json: value) }
    }

    @Test("writes what JSONEncoder writes, and JSONDecoder reads it back, on random layouts", arguments: 0..<40)
    func writerMatchesCodable(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9)
        let layout = RandomLayouts.layout(maxPages: 6, slots: [12, 6, 1].randomElement(using: &rng)!, using: &rng)
        let fast = EncodedLayout(layout).json
        #expect(try JSONDecoder().decode(DeckLayout.self, from: Data(fast)) == layout)
        #expect(try foundationTree(fast) == foundationTree(JSONEncoder().encode(layout)))
        #expect(try self.layout(fast) == layout)
    }

    @Test("reads what JSONEncoder writes, compact or pretty with sorted keys", arguments: 0..<40)
    func readsCodable(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0xC0DE)
        let layout = RandomLayouts.layout(maxPages: 6, using: &rng)
        #expect(try self.layout(Array(JSONEncoder().encode(layout))) == layout)
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        #expect(try self.layout(Array(pretty.encode(layout))) == layout)
    }

    @Test("control characters, quotes, backslashes, emoji and every action field")
    func awkward() throws {
        let strange = "q\"b\\s/\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}\n\r\t é 🎙️ \u{2028}"
        let layout = try DeckLayout(slotsPerPage: 4, pages: [DeckPage(title: strange, buttons: [
            DeckButton(name: strange, icon: strange, action: .run(command: strange, cwd: strange, timeout: 2.5)),
            DeckButton(name: "t", action: .run(command: "x", timeout: 600)),
            DeckButton(name: "p", action: .plugin(id: strange, command: strange, settings: [
                strange: .array([.null, .bool(true), .int(-7), .double(0.1), .double(1e-5), .double(3e20), .string(strange)]),
                "o": .object(["k": .object([:]), "e": .array([])]),
            ])),
            DeckButton(name: "n", action: .page(.number(3))),
        ])])
        let fast = EncodedLayout(layout).json
        #expect(try JSONDecoder().decode(DeckLayout.self, from: Data(fast)) == layout)
        #expect(try foundationTree(fast) == foundationTree(JSONEncoder().encode(layout)))
        #expect(try self.layout(fast) == layout)
    }

    @Test func everyActionKindRoundTrips() throws {
        for action in CodableTests.actions + [.page(.previous), .plugin(id: "p", command: "c", settings: [:])] {
            let button = DeckButton(name: "B", icon: "🎙️", action: action)
            let fast = Array(written { $0.write(button) }.utf8)
            #expect(try readJSON(fast) { value throws(JSONError) in try DeckButton(json: value) } == button)
            #expect(try JSONDecoder().decode(DeckButton.self, from: Data(fast)) == button)
        }
    }
}

@Suite("JSON codec of the model: exact bytes")
struct JSONCodecShapeTests {
    @Test func layoutShape() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files)], slots: 2)
        #expect(written { $0.write(layout) }
                == #"{"slotsPerPage":2,"pages":[{"buttons":[{"name":"Files","icon":"folder","action":{"open":"~"}},null]},{"buttons":[null,null]}]}"#)
        layout.pages[0].title = "Main"
        #expect(written { $0.write(layout) }.hasPrefix(#"{"slotsPerPage":2,"pages":[{"title":"Main","buttons":["#))
    }

    @Test("actions: the kind key first, integral timeouts as integers, settings sorted, floats keep a fraction", arguments: [
        (DeckAction.run(command: "make", cwd: "/", timeout: 600), #"{"run":"make","cwd":"/","timeout":600}"#),
        (.run(command: "sleep 1", timeout: 0.5), #"{"run":"sleep 1","timeout":0.5}"#),
        (.open("https://example.com/?q=a&b=c"), #"{"open":"https://example.com/?q=a&b=c"}"#),
        (.page(.next), #"{"page":"next"}"#), (.page(.previous), #"{"page":"previous"}"#), (.page(.number(3)), #"{"page":3}"#),
        (.profile("streaming"), #"{"profile":"streaming"}"#),
        (.plugin(id: "p", command: "c"), #"{"plugin":"p","command":"c"}"#),
        (.plugin(id: "p", command: "c", settings: ["b": .array([.int(1), .null, .bool(false)]), "a": .double(2), "c": .object(["k": .string("v")]),
                                                   "d": .double(1e-7), "e": .int(-3)]),
         #"{"plugin":"p","command":"c","settings":{"a":2.0,"b":[1,null,false],"c":{"k":"v"},"d":1e-07,"e":-3}}"#),
    ])
    func actionShape(_ action: DeckAction, _ expected: String) {
        #expect(written { $0.write(action) } == expected)
    }

    @Test func stringsAreEscapedOnlyWhereJSONNeedsIt() {
        #expect(written { $0.string("a\"b\\c\nd\te\u{01}f/다음 🎙️\u{8}\u{C}\u{1F}") }
                == #""a\"b\\c\nd\te\u0001f/다음 🎙️\b\f\u001f""#)
    }

    @Test func numbersJSONCannotHoldAreNullAndReported() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.exactDouble(1.5)
        writer.exactDouble(-.infinity)
        writer.double(.nan)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[1.5,null,null]")
        #expect(writer.nonFiniteNumber == -.infinity)
    }

    /// An encoded layout is the writer's bytes for that layout, and is used
    /// only for the layout it was made from.
    @Test func encodedLayoutsAreReusedOnlyForTheirLayout() throws {
        var rng = SeededGenerator(seed: 31)
        let layout = RandomLayouts.layout(maxPages: 4, using: &rng)
        let encoded = EncodedLayout(layout)
        #expect(String(decoding: encoded.json, as: UTF8.self) == written { $0.write(layout) })
        #expect(encoded.json(for: layout) == encoded.json)
        var other = layout
        try other.set(page: 0, index: 0, button: Fixture.terminal)
        #expect(encoded.json(for: other) == nil)
        #expect(written { $0.write(other, reusing: encoded) } == written { $0.write(other) })
        #expect(written { $0.write(layout, reusing: encoded) } == written { $0.write(layout) })
        #expect(EncodedLayout(layout).nonFiniteNumber == nil)
        let infinite = try DeckLayout(pages: [DeckPage(buttons: [
            DeckButton(name: "p", action: .plugin(id: "a", command: "b", settings: ["x": .double(.infinity)])),
        ])])
        #expect(EncodedLayout(infinite).nonFiniteNumber == .infinity)
    }
}

/// A revision encoded from the one before copies the pages an edit did not
/// touch: its bytes must be a whole encoding's, whatever the edits.
@Suite("JSON codec of the model: an encoding reused page by page")
struct EncodedLayoutReuseTests {
    @Test(arguments: 0..<12)
    func randomEditsEncodeAsTheWholeLayoutDoes(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0xE0C0)
        var layout = RandomLayouts.layout(maxPages: 6, slots: [12, 6, 1].randomElement(using: &rng)!, using: &rng)
        var encoded = EncodedLayout(layout)
        var reused = 0
        for step in 0..<300 {
            let pages = layout.pages.count
            let page = Int.random(in: 0..<pages, using: &rng)
            let index = Int.random(in: 0..<layout.slotsPerPage, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                try? layout.set(page: page, index: index, button: RandomLayouts.button(tag: step, using: &rng))
            case 4:
                try? layout.clear(page: page, index: index, expecting: layout.button(page: page, index: index))
            case 5:
                // Not an edit: a layout equal page by page but stored apart is encoded anew, to the same bytes.
                layout = try DeckLayout(slotsPerPage: layout.slotsPerPage, pages: layout.pages.map { DeckPage(title: $0.title, buttons: Array($0.buttons)) })
            default:
                if let source = layout.placedButtons.randomElement(using: &rng) {
                    try? layout.move(fromPage: source.page, fromIndex: source.index, toPage: Int.random(in: 0..<pages, using: &rng),
                                     toIndex: index, expecting: source.button)
                }
            }
            let next = EncodedLayout(layout, reusing: encoded)
            let whole = EncodedLayout(layout)
            #expect(next.json == whole.json)
            #expect(next.nonFiniteNumber == whole.nonFiniteNumber)
            reused += zip(layout.pages, encoded.layout.pages).filter { $0.isSameStorage(as: $1) }.count
            encoded = next
        }
        #expect(reused > 0, "some pages were copied, not encoded")
    }

    /// An edit written with its buttons copied from an encoding is the
    /// plain writer's bytes, with the layout after it (a move's four sides
    /// are all there), the one before, and an unrelated one.
    @Test(arguments: 0..<8)
    func randomEditsWriteAsWithoutReuse(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0xED17)
        var layout = RandomLayouts.layout(maxPages: 4, slots: [12, 3].randomElement(using: &rng)!, using: &rng)
        let unrelated = EncodedLayout(RandomLayouts.layout(maxPages: 2, using: &rng))
        var copied = 0
        for step in 0..<200 {
            let before = layout
            let page = Int.random(in: 0..<layout.pages.count, using: &rng)
            let index = Int.random(in: 0..<layout.slotsPerPage, using: &rng)
            let kind: DeckEdit.Kind
            var slots = [DeckSlot(page: page, index: index)]
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                kind = .set
                try? layout.set(page: page, index: index, button: RandomLayouts.button(tag: step, using: &rng))
            case 1:
                kind = .clear
                try? layout.clear(page: page, index: index, expecting: layout.button(page: page, index: index))
            default:
                kind = .move
                guard let source = layout.placedButtons.randomElement(using: &rng) else { continue }
                try? layout.move(fromPage: source.page, fromIndex: source.index, toPage: page, toIndex: index,
                                 expecting: source.button)
                slots = [DeckSlot(page: source.page, index: source.index), DeckSlot(page: page, index: index)]
            }
            let edit = DeckEdit(kind: kind, slots: slots, from: before, to: layout)
            let plain = written { $0.write(edit) }
            for encoded in [EncodedLayout(layout), EncodedLayout(before), unrelated] {
                #expect(written { $0.write(edit, reusing: encoded) } == plain, "step \(step)")
            }
            let after = EncodedLayout(layout)
            copied += edit.changes.filter { change in change.after.map { _ in after.json(ofSlot: change.slot) != nil } ?? false }.count
        }
        #expect(copied > 0, "some sides were there to copy")
    }

    @Test func aSlotsJSONIsThatOfItsValueAndNoneOutsideOrAfterANonFiniteNumber() throws {
        var rng = SeededGenerator(seed: 5)
        let layout = RandomLayouts.layout(maxPages: 3, using: &rng)
        let encoded = EncodedLayout(layout)
        for (page, contents) in layout.pages.enumerated() {
            for (index, button) in contents.buttons.enumerated() {
                let bytes = try #require(encoded.json(ofSlot: DeckSlot(page: page, index: index)))
                #expect(String(decoding: bytes, as: UTF8.self) == written { $0.write(button) })
            }
        }
        #expect(encoded.json(ofSlot: DeckSlot(page: layout.pages.count, index: 0)) == nil)
        #expect(encoded.json(ofSlot: DeckSlot(page: 0, index: layout.slotsPerPage)) == nil)
        let infinite = EncodedLayout(try DeckLayout(pages: [DeckPage(buttons: [
            DeckButton(name: "p", action: .plugin(id: "a", command: "b", settings: ["x": .double(.infinity)])),
        ])]))
        #expect(infinite.json(ofSlot: DeckSlot(page: 0, index: 0)) == nil)
    }

    @Test func aReusedRevisionKeepsTheFirstNonFiniteNumber() throws {
        // Layouts are built whole: an edit refuses a button with a non-finite number (the model's check).
        func plugin(_ name: String, _ number: Double) -> DeckButton {
            DeckButton(name: name, action: .plugin(id: "a", command: "b", settings: ["x": .double(number)]))
        }
        let first = DeckPage(buttons: [plugin("f", 1), nil])
        let before = EncodedLayout(try DeckLayout(slotsPerPage: 2, pages: [first, DeckPage(buttons: [plugin("g", 2), nil])]))
        let withNaN = try DeckLayout(slotsPerPage: 2, pages: [first, DeckPage(buttons: [plugin("n", .nan), nil])])
        let after = EncodedLayout(withNaN, reusing: before)
        #expect(after.nonFiniteNumber?.isNaN == true && after.json == EncodedLayout(withNaN).json)
        // The page with NaN comes from a revision that had one: nothing is copied from it, so the first in order is found.
        let both = try DeckLayout(slotsPerPage: 2, pages: [DeckPage(buttons: [plugin("i", -.infinity), nil]), withNaN.pages[1]])
        let again = EncodedLayout(both, reusing: after)
        #expect(again.nonFiniteNumber == -.infinity && again.json == EncodedLayout(both).json)
    }
}

@Suite("JSON codec of the model: reading")
struct JSONCodecReadingTests {
    func layout(_ text: String) throws(JSONError) -> DeckLayout {
        try readJSON(text) { value throws(JSONError) in try DeckLayout(json: value) }
    }

    @Test("escapes, surrogate pairs, null optionals, unknown keys, 7.0 and other kinds' fields, as Codable reads them")
    func lenientWhereTheSpecAllows() throws {
        let text = #"""
        {"slotsPerPage":2.0,"extra":[1,{"x":null}],"pages":[{"title":null,"buttons":[
          {"name":"\u00e9\ud83c\udf99 \"q\" \\ \/","icon":null,"future":true,
           "action":{"run":"ls","cwd":null,"timeout":5,"command":42,"settings":"ignored","open":null}},
          {"name":"p","action":{"plugin":"a","command":"b","settings":{"n":-1.5e2,"i":7,"l":[true,false,null],"i":8}}}]}]}
        """#
        let layout = try layout(text)
        #expect(layout.slotsPerPage == 2)
        #expect(layout.pages[0].title == nil)
        #expect(layout.pages[0].buttons[0] == DeckButton(name: "é🎙 \"q\" \\ /", action: .run(command: "ls", timeout: 5)))
        #expect(layout.pages[0].buttons[1]?.action == .plugin(id: "a", command: "b", settings: [
            "n": .double(-150), "i": .int(8), "l": .array([.bool(true), .bool(false), .null]),
        ]))
        #expect(layout.pages.count == 2, "normalized: one empty page appended")
        #expect(try self.layout(#"{"pages":[]}"#) == .empty())
        #expect(try readJSON(#"{"page":4.0}"#) { value throws(JSONError) in try DeckAction(json: value) } == .page(.number(4)))
    }

    /// Each failure names the field it concerns; wrong types and shapes are
    /// told apart from rules of the model.
    @Test(arguments: [
        (#"{"pages":"no"}"#, "'pages' must be an array, not a string"),
        (#"{"pages":null}"#, "'pages' is missing; it must be an array of pages"),
        (#"{"slotsPerPage":1.5,"pages":[]}"#, "'slotsPerPage' must be an integer, not a number"),
        (#"{"slotsPerPage":true,"pages":[]}"#, "'slotsPerPage' must be an integer, not a boolean"),
        (#"{"slotsPerPage":1e30,"pages":[]}"#, "'slotsPerPage' must be an integer, not a number"),
        ("[]", "expected a layout object, not an array"),
        (#"{"pages":[5]}"#, "'pages[0]' must be a page object, not a number"),
        (#"{"pages":[{"buttons":[{"name":"a"}]}]}"#, "'pages[0].buttons[0].action' is missing; it must be an action object"),
        (#"{"pages":[{"buttons":[{"name":7,"action":{"open":"x"}}]}]}"#, "'pages[0].buttons[0].name' must be a string, not a number"),
        (#"{"pages":[{"buttons":[{"name":"","action":{"open":"x"}}]}]}"#, "a button needs a non-empty name (at 'pages[0].buttons[0]')"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"open":"x","run":"y"}}]}]}"#,
         "an action needs exactly one of run, open, page, profile, plugin (found run and open) (at 'pages[0].buttons[0].action')"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"run":null}}]}]}"#,
         "an action needs exactly one of run, open, page, profile, plugin (found none) (at 'pages[0].buttons[0].action')"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"run":"y","timeout":"5"}}]}]}"#,
         "'pages[0].buttons[0].action.timeout' must be a number of seconds, not a string"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"run":"y","timeout":0}}]}]}"#,
         "button 'a': run timeout must be a positive number of seconds (at 'pages[0].buttons[0]')"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"plugin":"y"}}]}]}"#,
         "'pages[0].buttons[0].action.command' is missing; it must be a string"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"plugin":"y","command":"c","settings":[]}}]}]}"#,
         "'pages[0].buttons[0].action.settings' must be an object, not an array"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"page":"sideways"}}]}]}"#,
         "a page action goes to next, previous or a page number, not 'sideways' (at 'pages[0].buttons[0].action.page')"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"page":true}}]}]}"#,
         "'pages[0].buttons[0].action.page' must be next, previous or a page number, not a boolean"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"page":-1}}]}]}"#,
         "button 'a': page numbers start at 0 (at 'pages[0].buttons[0]')"),
        (#"{"slotsPerPage":2,"pages":[{"buttons":[null]}]}"#, "a page has 1 slots but pages hold 2 (at 'pages[0]')"),
        (#"{"pages":[{"buttons":[null,null,null,null,null,null,null,null,null,null,null,null],"title":5}]}"#,
         "'pages[0].title' must be a string, not a number"),
        (#"{"slotsPerPage":0,"pages":[]}"#, "slotsPerPage must be between 1 and 256, not 0"),
        (#"{"slotsPerPage":1,"pages":[{"buttons":[{"name":"a","action":{"open":"x"}}]}],"pages":[{"buttons":[7]}]}"#,
         "'pages[0].buttons[0]' must be a button object, not a number"),
    ])
    func problems(_ text: String, _ expected: String) {
        let error = jsonError(text) { value throws(JSONError) in try DeckLayout(json: value) }
        #expect(error?.description == expected)
    }

    @Test func theReaderLooksUpEveryKindKey() {
        #expect(DeckAction.jsonKindKeys.map(\.description) == DeckAction.kindKeys)
    }

    @Test("wrong types and shapes are malformed, broken rules invalid")
    func problemKinds() {
        func problem(_ text: String) -> JSONError.Problem? {
            jsonError(text) { value throws(JSONError) in try DeckButton(json: value) }?.problem
        }
        #expect(problem(#"{"name":"","action":{"open":"x"}}"#) == .invalid("a button needs a non-empty name"))
        #expect(problem(#"{"name":"a","action":{"open":5}}"#) == .wrongType(expected: "a string", got: "a number"))
        #expect(problem(#"{"name":"a"}"#) == .missing(expected: "an action object"))
        #expect(problem(#"{"name":"a","action":{"open":"x"}"#)
                == .syntax(reason: "expected ',' or '}' after an object member", offset: 33))
    }

    /// Thousands of random edits of a real layout's JSON: each reads to a
    /// layout that writes back to itself, or fails with a JSONError.
    @Test func damagedLayoutsNeverTrap() throws {
        var rng = SeededGenerator(seed: 0xF022)
        let original = EncodedLayout(RandomLayouts.layout(maxPages: 3, using: &rng)).json
        var refused = 0
        for _ in 0..<3_000 {
            var bytes = original
            RandomEdits.apply(Int.random(in: 1...4, using: &rng), to: &bytes, using: &rng)
            do {
                let layout = try readJSON(bytes) { value throws(JSONError) in try DeckLayout(json: value) }
                #expect(try readJSON(EncodedLayout(layout).json) { value throws(JSONError) in try DeckLayout(json: value) } == layout)
            } catch {
                #expect(!error.description.isEmpty)
                refused += 1
            }
        }
        #expect(refused > 1_000)
    }
}
