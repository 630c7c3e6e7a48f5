import DeckProfiles

/// Which LINE:COLUMN positions exist in a file, counted as the profile and
/// manifest readers count them (docs/profiles.md "Problems"): lines are
/// 1-based, a column counts characters (a byte that is not UTF-8 is one),
/// and a position just past a line's last character (its end) is inside.
///
/// libyaml also breaks lines at U+0085, U+2028 and U+2029 where the text
/// reaches it with them, and not where the encoding check has replaced them,
/// so a position counts as inside when it is inside under either reading.
struct FilePositions {
    /// Characters per line, breaking at `\n`, `\r\n` and `\r` only.
    private let plainLines: [Int]
    /// Characters per line, breaking at the Unicode line breaks too.
    private let unicodeLines: [Int]

    init(_ bytes: [UInt8]) {
        plainLines = Self.lineLengths(bytes, unicodeBreaks: false)
        unicodeLines = Self.lineLengths(bytes, unicodeBreaks: true)
    }

    func contains(line: Int, column: Int) -> Bool {
        [plainLines, unicodeLines].contains { lines in
            line >= 1 && line <= lines.count && column >= 1 && column <= lines[line - 1] + 1
        }
    }

    /// Throws unless every problem names `file` and a position inside it.
    func requireInside(_ problems: [FileProblem], file: String, reader: String) throws(FuzzFinding) {
        try require(!problems.isEmpty, "\(reader) refused a file without saying why")
        for problem in problems {
            try require(problem.file == file, "\(reader) named the file \(problem.file), not \(file): \(problem)")
            try require(contains(line: problem.line, column: problem.column),
                        "\(reader) put a problem outside the file (\(plainLines.count) lines): \(problem)")
        }
    }

    private static func lineLengths(_ bytes: [UInt8], unicodeBreaks: Bool) -> [Int] {
        var lines: [Int] = []
        var length = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let width = characterWidth(bytes, at: index)
            let isBreak: Bool
            if byte == 0x0A || byte == 0x0D {
                isBreak = true
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else if unicodeBreaks, width == 2, byte == 0xC2, bytes[index + 1] == 0x85 {
                isBreak = true
            } else if unicodeBreaks, width == 3, byte == 0xE2, bytes[index + 1] == 0x80,
                      bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                isBreak = true
            } else {
                isBreak = false
            }
            if isBreak {
                lines.append(length)
                length = 0
            } else {
                length += 1
            }
            index += width
        }
        lines.append(length)
        return lines
    }

    /// The bytes of the UTF-8 sequence at `index`, or 1 for a byte that does not start a valid one.
    private static func characterWidth(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let width: Int
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC2...0xDF: width = 2
        case 0xE0...0xEF: width = 3
        case 0xF0...0xF4: width = 4
        default: return 1
        }
        guard index + width <= bytes.count else { return 1 }
        let scalarBytes = bytes[index..<index + width]
        var iterator = scalarBytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue = decoder.decode(&iterator) { return width }
        return 1
    }
}
