import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Hostile and broken lines, from a fixed seed: no decoder may trap, every
/// failure must be one of the expected codes with a sentence, and anything
/// that does decode must encode and decode back to itself.
@Suite("fuzzing the decoders")
struct FuzzTests {
    static let corpus: [[UInt8]] = RoundTripTests.requests.map { ClientMessage(id: 1, $0).line() }
        + RoundTripTests.hostMessages.map { $0.line() }

    static let tokens: [[UInt8]] = ["\"", "{", "}", "[", "]", ",", ":", "null", "true", "1e400", "-", "0", "01",
                                    "\\", "\\u", "\\ud800", "\"id\":", "\"type\":", "9223372036854775808", "1.5",
                                    "\u{0}", "\n", "\r", " ", "é", "🎙️"].map { Array($0.utf8) }
        + [[0xFF], [0xC3], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xC0, 0xAF]]

    static let hugeNumbers = ["1e400", "-1e400", "123456789012345678901234567890", "-9223372036854775809",
                              "9223372036854775807", "-0", "1e-400", "0." + String(repeating: "0", count: 400) + "1",
                              String(repeating: "9", count: 5_000), "1E+2", "2.0"]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func mutatedLines(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var decoded = 0
        let rounds = 3_000
        for _ in 0..<rounds {
            var line = Self.corpus.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                mutate(&line, using: &rng)
            }
            if Self.check(line) { decoded += 1 }
        }
        // The mutations must reach both sides: lines that still decode (and
        // must round-trip) and lines that fail (and must fail cleanly).
        #expect(decoded > rounds / 20 && decoded < rounds - rounds / 20, "\(decoded) of \(rounds) decoded")
    }

    @Test func truncatedLinesAtEveryByte() {
        for line in Self.corpus where line.count < 2_000 {
            for end in 0..<line.count { Self.check(Array(line[..<end])) }
        }
    }

    @Test func randomBytes() {
        var rng = SeededGenerator(seed: 99)
        let alphabet = Array(#"{}[]",:0123456789-+.eEtrufalsn\ "#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...200, using: &rng)
            let line = (0..<count).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            Self.check(line)
        }
    }

    @Test func hugeNumbersEverywhere() throws {
        var rng = SeededGenerator(seed: 5)
        let digits = try Regex(#"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?"#)
        for _ in 0..<1_000 {
            let text = String(decoding: Self.corpus.randomElement(using: &rng)!, as: UTF8.self)
            let numbers = text.ranges(of: digits)
            guard let range = numbers.randomElement(using: &rng) else { continue }
            var changed = text
            changed.replaceSubrange(range, with: Self.hugeNumbers.randomElement(using: &rng)!)
            Self.check(Array(changed.utf8))
        }
    }

    /// Replaces one value somewhere inside a valid message with a value of
    /// another type: every such line decodes or fails as malformed/invalid.
    @Test func wrongTypes() throws {
        var rng = SeededGenerator(seed: 6)
        let replacements: [Any] = [1, -7, 1.5, "x", "", true, NSNull(), [Any](), [String: Any](), ["name": 1], [1, "a"]]
        for _ in 0..<2_000 {
            let line = Self.corpus.randomElement(using: &rng)!
            let object = try JSONSerialization.jsonObject(with: Data(line))
            let mutated = Self.replaceRandomValue(in: object, with: replacements.randomElement(using: &rng)!, using: &rng)
            Self.check(Array(try JSONSerialization.data(withJSONObject: mutated)))
        }
    }

    /// 100,000 nested arrays inside a 1 MiB line, balanced and not, in a
    /// field after the `id` (which is still echoed), and nested objects.
    @Test func deepNesting() throws {
        let size = 1 << 20
        let head = Array(#"{"type":"ping","id":77,"x":"#.utf8)
        let depth = 100_000
        var arrays = head + Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        arrays += Array(repeating: UInt8(ascii: " "), count: size - arrays.count - 1) + [UInt8(ascii: "}")]
        #expect(arrays.count == size)
        let objects = head + Array(String(repeating: #"{"a":"#, count: depth).utf8)
        for line in [arrays, head + Array(repeating: UInt8(ascii: "["), count: size - head.count), objects] {
            let error = try #require(clientResult(line).failure)
            #expect(error.code == .malformed && error.id == 77)
            #expect(error.message.contains("deeper than"))
            #expect(throws: ProtocolError.self) { try HostMessage.decode(line) }
        }
        // Nesting the parser allows is decoded, not refused.
        let allowed = head + Array(repeating: UInt8(ascii: "["), count: 63) + Array(repeating: UInt8(ascii: "]"), count: 63) + [UInt8(ascii: "}")]
        #expect(try ClientMessage.decode(allowed) == ClientMessage(id: 77, .ping))
    }

    /// The deepest message the parser allows (plugin settings nested to the
    /// limit) is parsed to the end and refused as `invalid` by the model's
    /// settings bound; the deepest the model allows round-trips; both, and
    /// the 100k-deep line, on a thread with a small stack, as an event loop
    /// thread might have.
    @Test func deepestMessagesFitASmallStack() throws {
        func setButton(settingsNesting nesting: Int) -> [UInt8] {
            Array(#"{"type":"setButton","id":1,"page":0,"index":0,"button":{"name":"a","action":{"plugin":"p","command":"c","settings":{"k":"#.utf8)
                + Array(repeating: UInt8(ascii: "["), count: nesting) + Array(repeating: UInt8(ascii: "]"), count: nesting)
                + Array("}}}}".utf8)
        }
        let parserDeepest = setButton(settingsNesting: 64 - 4)  // message, button, action, settings: four levels
        let modelDeepest = setButton(settingsNesting: DeckConstants.maximumSettingsDepth - 1)
        let tooDeep = Array(#"{"x":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: 100_000)
        let results = try #require(onSmallStack { () -> (ProtocolError?, ClientMessage?, ProtocolError?) in
            let refusedByModel = clientResult(parserDeepest).failure
            let message = try? ClientMessage.decode(modelDeepest)
            let again = message.flatMap { try? ClientMessage.decode($0.line()) }
            let refused = clientResult(tooDeep).failure
            return (refusedByModel, again == message ? message : nil, refused)
        })
        #expect(results.0?.code == .invalid, "the parser read the deepest line to the end")
        #expect(results.1?.kind == .setButton, "the deepest message the model allows round-trips")
        #expect(results.2?.code == .malformed)
    }

    @Test func invalidUTF8InEveryString() {
        var rng = SeededGenerator(seed: 8)
        let bad: [[UInt8]] = [[0xFF], [0xC3], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE2, 0x82]]
        for _ in 0..<2_000 {
            var line = Self.corpus.randomElement(using: &rng)!
            let quotes = line.indices.filter { line[$0] == UInt8(ascii: "\"") }
            guard let quote = quotes.randomElement(using: &rng) else { continue }
            line.insert(contentsOf: bad.randomElement(using: &rng)!, at: quote + 1)
            // Inside a string or outside one, invalid UTF-8 makes the line malformed.
            #expect(clientResult(line).failure?.code == .malformed, "\(String(decoding: line, as: UTF8.self))")
            Self.check(line)
        }
    }

    // MARK: The properties every input must keep

    static let clientCodes: Set<ErrorCode> = [.malformed, .unsupported, .invalid]

    /// Runs every decoder on `line` and checks what came back. True when one
    /// of the two message decoders accepted the line.
    @discardableResult
    static func check(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        var accepted = false
        switch clientResult(line) {
        case .success(let message):
            accepted = true
            #expect((try? ClientMessage.decode(message.line())) == message, sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(clientCodes.contains(error.code) && !error.message.isEmpty, "\(error)", sourceLocation: sourceLocation)
        }
        for access in [ClientAccess(level: 7, isControl: false), ClientAccess(level: 1, isControl: true)] {
            if let error = clientResult(line, access: access).failure {
                #expect((clientCodes.union([.unauthorized, .handshake])).contains(error.code), sourceLocation: sourceLocation)
            }
        }
        do {
            _ = try ClientMessage.decodeHello(line)
        } catch {
            #expect(error.code == .handshake, sourceLocation: sourceLocation)
        }
        do {
            let message = try HostMessage.decode(line)
            accepted = true
            #expect((try? HostMessage.decode(message.line())) == message, sourceLocation: sourceLocation)
        } catch {
            #expect(clientCodes.contains(error.code) && !error.message.isEmpty, "\(error)", sourceLocation: sourceLocation)
        }
        return accepted
    }

    // MARK: Mutations

    private func mutate(_ line: inout [UInt8], using rng: inout SeededGenerator) {
        guard !line.isEmpty else { return }
        let at = Int.random(in: 0..<line.count, using: &rng)
        switch Int.random(in: 0..<8, using: &rng) {
        case 5, 6, 7:
            // Keeps the JSON well-formed most of the time: changes a letter or
            // digit of a key, a type, a string or a number.
            let alphanumeric = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
            if let spot = line.indices.filter({ alphanumeric.contains(line[$0]) }).randomElement(using: &rng) {
                line[spot] = alphanumeric.randomElement(using: &rng)!
            }
        case 0: line.removeSubrange(at...)
        case 1: line[at] = UInt8.random(in: 0...255, using: &rng)
        case 2: line.insert(contentsOf: Self.tokens.randomElement(using: &rng)!, at: at)
        case 3: line.removeSubrange(at..<min(line.count, at + Int.random(in: 1...16, using: &rng)))
        default:
            let from = Int.random(in: 0..<line.count, using: &rng)
            line.insert(contentsOf: line[from..<min(line.count, from + 24)], at: at)
        }
    }

    private static func replaceRandomValue(in value: Any, with replacement: Any, using rng: inout SeededGenerator) -> Any {
        if var object = value as? [String: Any], let key = object.keys.sorted().randomElement(using: &rng) {
            let stop = key == "type" || Int.random(in: 0..<3, using: &rng) == 0
            object[key] = stop ? replacement : replaceRandomValue(in: object[key] as Any, with: replacement, using: &rng)
            return object
        }
        if var array = value as? [Any], !array.isEmpty {
            let index = Int.random(in: 0..<array.count, using: &rng)
            array[index] = Bool.random(using: &rng) ? replacement : replaceRandomValue(in: array[index], with: replacement, using: &rng)
            return array
        }
        return replacement
    }
}
