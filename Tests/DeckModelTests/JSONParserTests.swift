import DeckModel
import DeckTestSupport
import Foundation
import Testing

@Suite("JSON parser: strict RFC 8259, never traps")
struct JSONParserTests {
    /// Not JSON: the reason and the byte where the parser gave up.
    static let syntax: [(String, String, Int)] = [
        ("{nope", "expected a string key in an object", 1),
        ("", "the text is empty", 0),
        (" \r\n\t", "the text is empty", 4),
        ("[", "the text ends where a value should start", 1),
        (#"{"a":"#, "the text ends where a value should start", 5),
        (#"{"a":1} {}"#, "unexpected data after the JSON value", 8),
        ("[1,]", "unexpected ']' where a value should start", 3),
        ("[1 2]", "expected ',' or ']' after an array element", 3),
        (#"{"a":1 "b":2}"#, "expected ',' or '}' after an object member", 7),
        (#"{"a" 1}"#, "expected ':' after an object key", 5),
        (#"{"a":1,}"#, "expected a string key in an object", 7),
        ("{1:2}", "expected a string key in an object", 1),
        ("[01]", "a number may not start with 0", 2),
        ("[-]", "expected a digit in a number", 2),
        ("[-a]", "expected a digit in a number", 2),
        ("[1.]", "expected a digit after '.'", 3),
        ("[1e]", "expected a digit in an exponent", 3),
        ("[1e+]", "expected a digit in an exponent", 4),
        ("[+1]", "unexpected '+' where a value should start", 1),
        ("[.5]", "unexpected '.' where a value should start", 1),
        ("[1e400]", "the number is too large", 1),
        ("[-1e400]", "the number is too large", 1),
        ("[tru]", "unexpected 't' where a value should start", 1),
        ("[nul", "unexpected 'n' where a value should start", 1),
        ("[True]", "unexpected 'T' where a value should start", 1),
        ("[NaN]", "unexpected 'N' where a value should start", 1),
        ("['a']", "unexpected ''' where a value should start", 1),
        (#"["a"#, "a string is not closed", 1),
        (#"["a\"#, "a string is not closed", 4),
        ("[\"a\u{1}\"]", "a control character must be escaped inside a string", 3),
        ("[\"a\nb\"]", "a control character must be escaped inside a string", 3),
        (#"["\x"]"#, "unknown escape 'x' after a backslash in a string", 4),
        (#"["\u12"]"#, "a \\u escape needs four hex digits", 6),
        (#"["\u12g4"]"#, "a \\u escape needs four hex digits", 6),
        (#"["\ud800"]"#, "a \\u escape holds half of a surrogate pair", 8),
        (#"["\ud800\u0041"]"#, "a \\u escape holds half of a surrogate pair", 14),
        (#"["\udc00"]"#, "a \\u escape holds half of a surrogate pair", 8),
        (#"["\udfff\ud800"]"#, "a \\u escape holds half of a surrogate pair", 8),
        ("\u{FEFF}[]", "unexpected byte 0xEF where a value should start", 0),
    ]

    @Test(arguments: syntax)
    func notJSON(_ text: String, _ reason: String, _ offset: Int) {
        #expect(jsonError(text) { $0.deckValue } == JSONError(.syntax(reason: reason, offset: offset)))
    }

    @Test func whiteSpaceAroundTheValueIsAllowed() throws {
        #expect(try deckValue(" \t{ \"a\" : [ 1 , 2 ] }\r\n") == .object(["a": .array([.int(1), .int(2)])]))
        #expect(try deckValue("7") == .int(7))
        #expect(try deckValue(#""x""#) == .string("x"))
        #expect(try deckValue("null") == .null)
    }

    // MARK: Strings

    @Test func escapesDecode() throws {
        let text = #""q\" b\\ s\/ \b\f\n\r\t \u00e9\u00E9 \uD83C\uDF99 \u0000 \u2028 다음 🎙️""#
        #expect(try readJSON(text) { $0.stringValue } == "q\" b\\ s/ \u{8}\u{C}\n\r\t éé 🎙 \u{0} \u{2028} 다음 🎙️")
    }

    /// Every byte sequence inside a string: accepted exactly when Swift's own
    /// UTF-8 validation accepts it, and read back as the same text.
    @Test func utf8IsCheckedLikeSwiftChecksIt() throws {
        var rng = SeededGenerator(seed: 0x0FF8)
        let interesting: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                    0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF]
        var accepted = 0
        for _ in 0..<6_000 {
            // Valid text with one byte changed half of the time, or random interesting bytes.
            var content: [UInt8]
            if Bool.random(using: &rng) {
                let scalars = (0..<Int.random(in: 1...3, using: &rng)).compactMap { _ in
                    Unicode.Scalar([0x7F, 0x7FF, 0xFFFF, 0x10FFFF].randomElement(using: &rng).map { UInt32.random(in: 0x20...$0, using: &rng) }!)
                }
                content = Array(String(String.UnicodeScalarView(scalars)).utf8).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
                if Bool.random(using: &rng), !content.isEmpty {
                    content[Int.random(in: 0..<content.count, using: &rng)] = interesting.randomElement(using: &rng)!
                }
            } else {
                content = (0..<Int.random(in: 1...6, using: &rng)).map { _ in interesting.randomElement(using: &rng)! }
            }
            let expected = String(validating: content, as: UTF8.self)
            let line = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
            let result = Result { () throws(JSONError) in try readJSON(line) { $0.stringValue } }
            switch result {
            case .success(let text):
                accepted += 1
                #expect(text == expected, "\(content)")
            case .failure(let error):
                #expect(expected == nil, "\(content)")
                #expect(error == JSONError(.syntax(reason: "a string is not valid UTF-8", offset: 0)), "\(content)")
            }
        }
        #expect(accepted > 1_500 && accepted < 5_000, "\(accepted) accepted")
    }

    @Test("the edges of UTF-8: shortest forms, surrogates, U+10FFFF", arguments: [
        ([0xC2, 0x80], true), ([0xDF, 0xBF], true), ([0xC1, 0xBF], false), ([0xC0, 0x80], false),
        ([0xE0, 0xA0, 0x80], true), ([0xE0, 0x9F, 0xBF], false), ([0xED, 0x9F, 0xBF], true), ([0xED, 0xA0, 0x80], false),
        ([0xEF, 0xBF, 0xBF], true), ([0xF0, 0x90, 0x80, 0x80], true), ([0xF0, 0x8F, 0xBF, 0xBF], false),
        ([0xF4, 0x8F, 0xBF, 0xBF], true), ([0xF4, 0x90, 0x80, 0x80], false), ([0xE2, 0x82], false), ([0xF0, 0x9F, 0x8E], false),
    ] as [([UInt8], Bool)])
    func utf8Edges(_ content: [UInt8], _ valid: Bool) {
        let line = Array(#"{"k":""#.utf8) + content + Array(#""}"#.utf8)
        #expect((jsonError(line) { $0.deckValue } == nil) == valid)
    }

    @Test func bytesOutsideStringsAreASCII() {
        #expect(jsonError([0x5B, 0xC3, 0xA9, 0x5D]) { $0.deckValue }
                == JSONError(.syntax(reason: "unexpected byte 0xC3 where a value should start", offset: 1)))
    }

    // MARK: Numbers

    @Test("numbers: integers stay integers, 7.0 is an integer to integer fields, nothing overflows", arguments: [
        ("0", 0, 0), ("-0", 0, 0), ("42", 42, 42), ("-7", -7, -7), ("2.0", 2, 2), ("1E+2", 100, 100), ("-1e0", -1, -1),
        ("9223372036854775807", Int.max, 9.223372036854775807e18), ("-9223372036854775808", Int.min, -9.223372036854775808e18),
        ("9223372036854775808", nil, 9.223372036854775808e18), ("0.5", nil, 0.5),
        // A fraction too small for a Double reads as 0, but is no integer (as 1e-19 is none); true zeros are.
        ("1e-400", nil, 0), ("1e-999999999", nil, 0), ("4.9e-325", nil, 0), ("1e-19", nil, 1e-19),
        ("0.0e-400", 0, 0), ("0e999999999", 0, 0), ("-0.000e-5", 0, 0),
        ("123456789012345678901234567890", nil, 1.2345678901234568e29),
    ] as [(String, Int?, Double)])
    func numbers(_ text: String, _ integer: Int?, _ double: Double) throws {
        #expect(try readJSON(text) { $0.intValue } == integer)
        #expect(try readJSON(text) { $0.doubleValue } == double)
        #expect(try readJSON(text) { $0.typeName } == "a number")
    }

    @Test func integersAndFloatsStayApartInPlainData() throws {
        #expect(try deckValue("[2, 2.0, 2e0, -0.0]") == .array([.int(2), .double(2), .double(2), .double(-0.0)]))
        let nines = String(repeating: "9", count: 5_000)
        #expect(jsonError(nines) { $0.deckValue } == JSONError(.syntax(reason: "the number is too large", offset: 0)))
    }

    // MARK: Objects

    @Test func theLastOfTwoEqualKeysWins() throws {
        let text = #"{"a":1,"b":2,"a":{"x":true},"\u0061":3}"#
        #expect(try deckValue(text) == .object(["a": .int(3), "b": .int(2)]))
        #expect(try readJSON(text) { $0.objectValue?["a"]?.intValue } == 3)
        #expect(try readJSON(text) { $0.objectValue?.map { $0.key.stringValue ?? "?" } } == ["a", "b", "a", "a"])
        #expect(try readJSON(#"{"a":1,"a":null}"#) { root throws(JSONError) in JSONFieldReader(root.objectValue!).optional("a") == nil })
    }

    /// A line that breaks after its top-level `id` still tells the id.
    @Test("what a failed parse still tells: the top-level members complete before the error", arguments: [
        (#"{"id":7,"x":["#, 7), (#"{"id":1,"id":2,"x"#, 2), (#"{"x":{"id":1},"id":"#, nil), (#"{"id":5"#, 5), ("[1,", nil),
        (#"{"a":[1,{"b":2}],"id":-3,"c":"\x"}"#, -3),
    ] as [(String, Int?)])
    func partialParse(_ text: String, _ id: Int?) {
        let salvaged = Array(text.utf8).withUnsafeBufferPointer { buffer in
            JSONValue.parse(buffer, maximumDepth: 64, noun: "the line") { parsed -> Int?? in
                guard case .failure(_, let partial) = parsed else { return .some(nil) }
                return .some(partial?["id"]?.intValue)
            }
        }
        #expect(salvaged == .some(id))
    }

    // MARK: Depth

    @Test func nestingIsLimitedExactly() throws {
        let deepest = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        #expect(try deckValue(deepest, depth: 5) == .array([.array([.array([.array([.array([])])])])]))
        #expect(jsonError("[" + deepest + "]", depth: 5) { $0.deckValue }
                == JSONError(.syntax(reason: "arrays and objects nest deeper than 5 levels", offset: 5)))
        #expect(jsonError(String(repeating: #"{"a":"#, count: 6), depth: 5) { $0.deckValue }
                == JSONError(.syntax(reason: "arrays and objects nest deeper than 5 levels", offset: 25)))
    }

    /// The parser does not recurse: 100,000 levels are refused at the limit,
    /// and the deepest allowed value is read, converted, written and freed,
    /// all on a thread with a 256 KiB stack (as an event loop might have).
    @Test(arguments: [64, 263])
    func deepestValuesFitASmallStack(limit: Int) throws {
        let results = try #require(onSmallStack { () -> [Bool] in
            let refused = Array(repeating: UInt8(ascii: "["), count: 100_000)
            let refusedObjects = Array(String(repeating: #"{"k":"#, count: 100_000).utf8)
            let deepest = Array(String(repeating: #"{"k":["#, count: limit / 2).utf8) + Array("1".utf8)
                + Array(String(repeating: "]}", count: limit / 2).utf8)
            let value = try? readJSON(deepest, depth: limit) { $0.deckValue }
            let again = value.flatMap { value in
                try? readJSON(Array(written { $0.write(value) }.utf8), depth: limit) { $0.deckValue }
            }
            return [
                jsonError(refused, depth: limit) { $0.deckValue } != nil,
                jsonError(refusedObjects, depth: limit) { $0.deckValue } != nil,
                value != nil && again == value,
            ]
        })
        #expect(results == [true, true, true])
    }

    // MARK: Fuzzing

    /// Random bytes over JSON's alphabet: every input parses or is refused
    /// with a syntax error, and what parses writes back to the same value.
    @Test(arguments: [1, 2] as [UInt64])
    func randomInputs(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let alphabet = RandomEdits.jsonAlphabet + [0x0A, 0xA9, 0xED]
        let seeds = [#"{"a":[1,-2.5e3,"x\u00e9\n",true,null,{"b":{}}],"c":"🎙️"}"#, #"[[],[[]],{"":0}]"#, #""\ud83c\udf99""#]
            .map { Array($0.utf8) }
        var parsed = 0
        for _ in 0..<6_000 {
            var bytes = seeds.randomElement(using: &rng)!
            RandomEdits.apply(Int.random(in: 0...3, using: &rng), to: &bytes, alphabet: alphabet, using: &rng)
            switch Result(catching: { () throws(JSONError) in try readJSON(bytes) { $0.deckValue } }) {
            case .success(let value):
                parsed += 1
                #expect(try readJSON(Array(written { $0.write(value) }.utf8)) { $0.deckValue } == value)
            case .failure(let error):
                guard case .syntax(let reason, let offset) = error.problem else {
                    Issue.record("not a syntax error: \(error)")
                    continue
                }
                #expect(!reason.isEmpty && offset >= 0 && offset <= bytes.count)
            }
        }
        #expect(parsed > 1_000 && parsed < 5_500, "\(parsed) parsed")
    }
}
