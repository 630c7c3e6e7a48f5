/// The `names:` file of a setting of type `words` (PLUGINS.md), one word a line:
/// the first field of every line that is not blank or a `#` comment.
package enum WordListFile {
    /// The first field of every line that is not blank or a `#` comment.
    ///
    /// Lines of ASCII are cut as bytes: walking `Character`s (grapheme
    /// breaking, Unicode properties) made the keys plugin's 31 KB list cost
    /// deckd ~27 M instructions at every start. A line with other bytes is
    /// read as `Character`s, so Unicode line ends and spaces count as before.
    package static func words(in bytes: [UInt8]) -> [String] {
        var words: [String] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            var ascii = true
            while lineEnd < bytes.count, !isASCIINewline(bytes[lineEnd]) {
                if bytes[lineEnd] >= 0x80 { ascii = false }
                lineEnd += 1
            }
            let line = bytes[lineStart..<lineEnd]
            if ascii {
                if let first = line.firstIndex(where: { !isASCIIWhitespace($0) }), line[first] != UInt8(ascii: "#") {
                    let end = line[first...].firstIndex(where: isASCIIWhitespace) ?? line.endIndex
                    words.append(String(decoding: line[first..<end], as: UTF8.self))
                }
            } else {
                words += unicodeWords(in: String(decoding: line, as: UTF8.self))
            }
            lineStart = lineEnd + 1
        }
        return words
    }

    /// ``words(in:)`` of text with non-ASCII characters, by `Character`.
    package static func unicodeWords(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard let word = line.split(whereSeparator: \.isWhitespace).first, !word.hasPrefix("#") else { return nil }
            return String(word)
        }
    }

    /// `Character.isNewline` of an ASCII byte: LF, VT, FF, CR.
    private static func isASCIINewline(_ byte: UInt8) -> Bool { (0x0A...0x0D).contains(byte) }

    /// `Character.isWhitespace` of an ASCII byte: tab, the newlines and space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool { (0x09...0x0D).contains(byte) || byte == 0x20 }
}
