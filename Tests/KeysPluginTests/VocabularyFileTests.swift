import DeckTestSupport
import KeysPlugin
import Testing

/// A keysym list's line trimmed as bytes equals the line trimmed by
/// `Character` (the byte path is only faster), whatever the line holds.
@Suite("The keysym list: lines trimmed as bytes as by Character")
struct VocabularyFileTests {
    /// Pieces of a line: names, ASCII spaces and line ends, and the Unicode
    /// the byte path hands on (NO-BREAK and IDEOGRAPHIC SPACE, NEL, an
    /// accent, a combining mark after a space, an emoji, bytes that are not UTF-8).
    static let pieces: [[UInt8]] = [
        "a", "KP_Enter", "XF86AudioPlay", " ", "\t", "\r", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{A0}", "\u{3000}",
        "\u{85}", "é", " \u{301}", "한", "🎙️",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3]]

    @Test(arguments: 0..<20)
    func randomLinesTrimTheSameBothWays(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0x7E55)
        for _ in 0..<100 {
            let bytes = rng.bytes(joining: Self.pieces, upTo: 8)
            let expected = String(decoding: bytes, as: UTF8.self).trimmingSuffix()
            let trimmed = bytes.withUnsafeBufferPointer { KeyNames.trimmedLine($0) }
            #expect(trimmed == expected, "\(bytes)")
        }
    }

    @Test func theListIsItsNamesOneALine() {
        #expect(vocabulary.count > 1_000)
        #expect(vocabulary.contains("KP_Enter") && vocabulary.contains("XF86AudioPlay"))
        #expect(vocabulary.allSatisfy { !$0.isEmpty && $0.last?.isWhitespace == false })
    }
}
