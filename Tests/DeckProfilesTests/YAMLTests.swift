@testable import DeckProfiles
import Testing

/// The YAML node layer that profiles and plugin manifests share.
@Suite("YAML node layer")
struct YAMLTests {
    static func parse(_ text: String, limits: YAMLLimits = YAMLLimits()) -> YAMLDocument {
        YAMLDocument.parse(Array(text.utf8), file: "t.yaml", limits: limits)
    }

    /// The mapping's values by key text, merged pairs included.
    static func dictionary(_ document: YAMLDocument, _ node: YAMLNode) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in document.pairs(node) { result[document.text(key)] = document.text(value) }
        return result
    }

    @Test func nodesCarryTheirPositions() throws {
        let document = Self.parse("""
            # a comment
            name: Files
            list:
              - a
              - {k: v}
            """)
        #expect(document.problems.isEmpty)
        let root = try #require(document.root)
        #expect(root.kind == .mapping && root.style == .block)
        #expect(root.mark == YAMLMark(line: 2, column: 1))
        let (nameKey, nameValue) = document.pair(root, 0)
        #expect(document.text(nameKey) == "name" && nameKey.mark == YAMLMark(line: 2, column: 1))
        #expect(document.text(nameValue) == "Files" && nameValue.mark == YAMLMark(line: 2, column: 7))
        let list = try #require(document.value(root, forKey: "list"))
        #expect(list.kind == .sequence && document.count(list) == 2)
        #expect(document.item(list, 0).mark == YAMLMark(line: 4, column: 5))
        let flow = document.item(list, 1)
        #expect(flow.kind == .mapping && flow.style == .flow && flow.mark == YAMLMark(line: 5, column: 5))
        #expect(document.pair(flow, 0).value.mark == YAMLMark(line: 5, column: 9))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let document = Self.parse("이름: {값: 🎙️x, b: c}\n")
        let root = try #require(document.root)
        let inner = document.pair(root, 0).value
        #expect(inner.mark == YAMLMark(line: 1, column: 5))
        // 🎙️ is two scalars (U+1F399 U+FE0F): libyaml counts each.
        #expect(document.pair(inner, 1).key.mark == YAMLMark(line: 1, column: 14))
    }

    @Test func scalarStylesAndTags() throws {
        let document = Self.parse("""
            a: plain
            b: 'single'
            c: "double"
            d: |
              literal
            e: >
              folded
            f: !!str 12
            """)
        let root = try #require(document.root)
        let styles = document.pairs(root).map(\.value.style)
        #expect(styles == [.plain, .singleQuoted, .doubleQuoted, .literal, .folded, .plain])
        #expect(document.tag(document.pair(root, 5).value) == "tag:yaml.org,2002:str")
        #expect(document.text(document.pair(root, 3).value) == "literal\n")
    }

    @Test func aliasesReadAsTheirTargetButKeepTheirOwnPosition() throws {
        let document = Self.parse("""
            x: &anchor {k: v}
            y: *anchor
            """)
        let root = try #require(document.root)
        let alias = document.pair(root, 1).value
        #expect(alias.isAlias && alias.kind == .mapping)
        #expect(alias.mark == YAMLMark(line: 2, column: 4))
        #expect(Self.dictionary(document, alias) == ["k": "v"])
        #expect(document.pair(alias, 0).value.mark == YAMLMark(line: 1, column: 16))
    }

    @Test func mergeKeysWithExplicitKeysWinning() throws {
        let document = Self.parse("""
            base: &base {a: 1, b: 2}
            m: {<<: *base, b: 3, c: 4}
            """)
        let merged = try #require(document.root.flatMap { document.value($0, forKey: "m") })
        #expect(Self.dictionary(document, merged) == ["a": "1", "b": "3", "c": "4"])
        #expect(document.count(merged) == 3)
        #expect(document.pairs(merged).map { document.text($0.key) } == ["b", "c", "a"])
    }

    @Test func mergeListsWhereEarlierSourcesWin() throws {
        let document = Self.parse("""
            one: &one {a: first, b: first}
            two: &two {b: second, c: second}
            m:
              <<: [*one, *two]
              c: explicit
            """)
        let merged = try #require(document.root.flatMap { document.value($0, forKey: "m") })
        #expect(Self.dictionary(document, merged) == ["a": "first", "b": "first", "c": "explicit"])
        #expect(document.problems.isEmpty)
    }

    @Test func mergeKeysCompareKeysByValue() throws {
        let document = Self.parse("""
            src: &src {1: merged-int, "2": merged-string}
            m: {<<: *src, 01: explicit, 2: explicit}
            """)
        let merged = try #require(document.root.flatMap { document.value($0, forKey: "m") })
        // `01` is the integer 1, so it overrides the merged `1`; `2` is not `"2"`.
        #expect(document.pairs(merged).map { document.text($0.key) } == ["01", "2", "2"])
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let document = Self.parse("m: {\"<<\": plain}\n")
        let merged = try #require(document.root.flatMap { document.value($0, forKey: "m") })
        #expect(Self.dictionary(document, merged) == ["<<": "plain"])
        #expect(document.problems.isEmpty)
    }

    @Test func mergeIntoManyMappingsStaysLinear() throws {
        let keys = (0..<200).map { "k\($0): \($0)" }.joined(separator: ", ")
        let users = (0..<200).map { "u\($0): {<<: *big, k7: mine, extra: \($0)}" }.joined(separator: "\n")
        let document = Self.parse("big: &big {\(keys)}\n\(users)\n")
        #expect(document.problems.isEmpty)
        let user = try #require(document.root.flatMap { document.value($0, forKey: "u3") })
        let values = Self.dictionary(document, user)
        #expect(values.count == 201 && values["k7"] == "mine" && values["k8"] == "8")
    }

    @Test func brokenAliasesAndMergesAreReported() {
        let document = Self.parse("""
            a: *nowhere
            b: &self [1, *self]
            c: {<<: 5}
            d: {<<: [{x: 1}, 7]}
            """)
        #expect(document.problems.map(\.description) == [
            "t.yaml:1:4: alias *nowhere has no anchor &nowhere before it",
            "t.yaml:2:14: alias *self is inside the node it names; recursive aliases are not allowed",
            "t.yaml:3:9: the merge key << takes a mapping or a list of mappings to merge, not a string",
            "t.yaml:4:18: the merge key << takes mappings to merge, not a string",
        ])
        #expect(document.root != nil, "these problems do not stop parsing")
    }

    @Test func billionLaughsIsStoppedQuickly() {
        var lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1..<9 {
            let name = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(level)))
            let previous = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(level - 1)))
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }
        let document = Self.parse(lines.joined(separator: "\n"))
        #expect(document.root == nil)
        #expect(document.problems.count == 1)
        #expect(document.problems.first?.message.contains("alias bomb") == true)
    }

    @Test func nestingIsBounded() {
        var limits = YAMLLimits()
        limits.maxDepth = 20
        let deep = String(repeating: "[", count: 25) + String(repeating: "]", count: 25)
        let document = Self.parse("a: \(deep)\n", limits: limits)
        #expect(document.root == nil)
        #expect(document.problems.map(\.message) == ["the document nests deeper than 20 levels"])
        let viaAliases = """
            a: &a [[[[[[[[[[x]]]]]]]]]]
            b: &b [[[[[[[[[[*a]]]]]]]]]]
            c: [[[[[[[[[[*b]]]]]]]]]]
            """
        let expanded = Self.parse(viaAliases, limits: limits)
        #expect(expanded.root == nil)
        #expect(expanded.problems.first?.message == "aliases nest the document deeper than 20 levels")
    }

    @Test func aSecondDocumentIsReportedAndTheFirstKept() throws {
        let document = Self.parse("a: 1\n---\nb: 2\n")
        #expect(document.problems.map(\.description) == ["t.yaml:2:1: a second YAML document starts here; the file must hold exactly one"])
        let root = try #require(document.root)
        #expect(Self.dictionary(document, root) == ["a": "1"])
    }

    @Test func emptyStreamsHaveNoRootAndNoProblem() {
        for text in ["", "\n\n", "# only a comment\n", "---\n...\n"] {
            let document = Self.parse(text)
            #expect(document.problems.isEmpty)
            #expect(document.root.map { document.isNull($0) } ?? true, "\(text.debugDescription)")
        }
    }

    @Test func syntaxErrorsUseLibyamlWordsAndPosition() {
        let document = Self.parse("a: b: c\n")
        #expect(document.root == nil)
        #expect(document.problems.map(\.description) == ["t.yaml:1:5: mapping values are not allowed here (YAML syntax)"])
        let unclosed = Self.parse("a: [1, 2\nb: 3\n")
        // The line to fix first, then libyaml's own words where it stopped.
        #expect(unclosed.problems.map(\.description) == [
            "t.yaml:1:9: unclosed bracket: a ']' is missing here to close the '[' at column 4 (YAML syntax)",
            "t.yaml:2:2: note: the YAML parser stopped here: did not find expected ',' or ']', while parsing a flow sequence that starts at line 1, column 4",
        ])
    }

    @Test func invalidUTF8IsReportedAtItsPositionAndTheRestStillParses() throws {
        // Line 2 ends in CRLF (one line break), line 3 holds Korean before the bad byte.
        var bytes = Array("a: ok\nb: fine\r\nc: 한글".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\nd: [1, 2\n".utf8)
        let document = YAMLDocument.parse(bytes, file: "t.yaml")
        #expect(document.problems.map(\.description).first == "t.yaml:3:6: byte 0xC3 is not valid UTF-8; save the file as UTF-8")
        #expect(document.problems.count == 3, "the syntax error after it is found too, with libyaml's note")
        #expect(document.problems[1].description.hasPrefix("t.yaml:4:9: unclosed bracket") == true)
        #expect(document.problems.last?.description.hasPrefix("t.yaml:5:1: note:") == true)
    }

    @Test func utf16IsNotTakenForUTF8() {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("a: 1".utf8).flatMap { [$0, 0] }
        let document = YAMLDocument.parse(bytes, file: "t.yaml")
        #expect(document.problems.map(\.description) == ["t.yaml:1:1: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8"])
        let bare = YAMLDocument.parse(Array("pages: []\n".utf8).flatMap { [0, $0] }, file: "t.yaml")
        #expect(bare.problems.map(\.description) == ["t.yaml:1:1: the file is UTF-16 (every other byte of its start is NUL); save it as UTF-8"])
    }

    @Test func manyBadBytesAreSummarised() {
        let bytes = Array("a: ".utf8) + Array(repeating: 0xFF, count: 50)
        let document = YAMLDocument.parse(bytes, file: "t.yaml")
        #expect(document.problems.count == 11)
        #expect(document.problems.last?.message == "40 more bytes from here on are not valid UTF-8 or are control characters")
    }

    @Test func aByteOrderMarkIsAllowed() throws {
        let document = YAMLDocument.parse([0xEF, 0xBB, 0xBF] + Array("a: 1\n".utf8), file: "t.yaml")
        #expect(document.problems.isEmpty)
        #expect(Self.dictionary(document, try #require(document.root)) == ["a": "1"])
    }

    @Test func aByteOrderMarkLeavesTheFirstLinesColumnsAlone() throws {
        let document = YAMLDocument.parse([0xEF, 0xBB, 0xBF] + Array("a: 1\r\nb: 2\n".utf8), file: "t.yaml")
        #expect(document.problems.isEmpty)
        let root = try #require(document.root)
        #expect(Self.dictionary(document, root) == ["a": "1", "b": "2"])
        #expect(document.pairs(root).map(\.key.mark.column) == [1, 1])
        #expect(YAMLDocument.countEvents([0xEF, 0xBB, 0xBF] + Array("a: 1\nb: 2\n".utf8)) == 10)
    }

    @Test func nullScalars() throws {
        let document = Self.parse("a: ~\nb: null\nc:\nd: NULL\ne: !!null x\nf: '~'\ng: Nul\n")
        let root = try #require(document.root)
        #expect(document.pairs(root).map { document.isNull($0.value) } == [true, true, true, true, true, false, false])
    }

    @Test func scalarTyping() throws {
        let document = Self.parse("a: yes\nb: 0x1F\nc: '12'\nd: 1_000\ne: 1.5\nf: !!float 2\ng: !!int x\nh: !custom y\n")
        let root = try #require(document.root)
        let values = document.pairs(root).map { document.scalar($0.value) }
        #expect(values[0] == .success(.bool(true)))
        #expect(values[1] == .success(.int(31)))
        #expect(values[2] == .success(.string("12")))
        #expect(values[3] == .success(.int(1000)))
        #expect(values[4] == .success(.double(1.5)))
        #expect(values[5] == .success(.double(2)))
        #expect(values[6] == .failure(.tagMismatch(tag: "!!int", text: "x")))
        #expect(values[7] == .failure(.unsupportedTag("!custom")))
    }

    @Test func countEventsIsABareScan() {
        #expect(YAMLDocument.countEvents(Array("a: [1, 2]\n".utf8)) == 11)
        #expect(YAMLDocument.countEvents(Array("a: b: c\n".utf8)) == nil)
        #expect(YAMLDocument.countEvents([]) == YAMLDocument.countEvents(Array("\n".utf8)))
    }
}

extension YAMLTests {
    @Test func distinctTagsAreBounded() {
        var limits = YAMLLimits()
        limits.maxTags = 3
        let document = Self.parse("a: !x 1\nb: !y 2\nc: !x 3\nd: !z 4\ne: !w 5\n", limits: limits)
        #expect(document.root == nil)
        #expect(document.problems.map(\.description) == ["t.yaml:5:4: the file uses more than 3 different tags"])
    }
}
