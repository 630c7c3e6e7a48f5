import DeckPlugins
import DeckTestSupport
import Foundation
import Testing

/// A `words` setting's names file read as bytes gives what reading it as
/// `Character`s gives (the byte path is only faster), whatever the file holds.
@Suite("Word list files: the byte reading equals the Character reading")
struct WordListFileTests {
    /// Pieces a names file is made of: words, ASCII spaces and line ends, CRLF,
    /// comments, and the Unicode that the byte path hands to the slow one
    /// (NEL, LINE SEPARATOR, NO-BREAK and IDEOGRAPHIC SPACE, accents, emoji,
    /// a combining mark, bytes that are not UTF-8).
    static let pieces: [[UInt8]] = [
        "a", "ctrl", "KP_Enter", "XF86AudioPlay", "#", "# comment", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}",
        "\u{85}", "\u{2028}", "\u{2029}", "\u{A0}", "\u{3000}", "é", "e\u{301}", "한글", "✓", "🎙️", "\u{1C}", "\u{1F}",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x80]]

    @Test(arguments: 0..<40)
    func randomFilesReadTheSameBothWays(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0x5EED)
        for _ in 0..<50 {
            let bytes = rng.bytes(joining: Self.pieces, upTo: 40)
            let expected = WordListFile.unicodeWords(in: String(decoding: bytes, as: UTF8.self))
            #expect(WordListFile.words(in: bytes) == expected, "\(bytes)")
        }
    }

    @Test func theKeysPluginsListsReadTheSameBothWays() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("plugins/keys")
        for name in ["keysyms.txt", "aliases.txt"] {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let words = WordListFile.words(in: bytes)
            #expect(words.count > 100 || name == "aliases.txt", "\(name): \(words.count) words")
            #expect(words == WordListFile.unicodeWords(in: String(decoding: bytes, as: UTF8.self)), "\(name)")
        }
    }

    @Test func commentsBlankLinesAndLaterFieldsAreLeftOut() {
        let text = "# keysyms\n\n  a   the letter\r\nb\t# tab\n#c\n \u{A0}d e\n"
        #expect(WordListFile.words(in: Array(text.utf8)) == ["a", "b", "d"])
    }
}
