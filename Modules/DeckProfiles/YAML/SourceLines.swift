/// The lines of a YAML source, found on demand: only a syntax error needs
/// them, and then only the few lines around it.
///
/// Lines break where libyaml breaks them (LF, CR, CR LF, NEL, LS, PS), so a
/// line number here is the one in libyaml's marks; a line's characters are
/// Unicode scalars, as libyaml's columns count them.
struct SourceLines {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Byte offset where each line starts, and where it ends (before its break).
    private var starts: [Int] = [0]
    private var ends: [Int] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var breakLength = 0
            switch byte {
            case 0x0A: breakLength = 1
            case 0x0D: breakLength = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: breakLength = 2
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9): breakLength = 3
            default: break
            }
            if breakLength > 0 {
                ends.append(index)
                starts.append(index + breakLength)
                index += breakLength
            } else {
                index += 1
            }
        }
        ends.append(bytes.count)
    }

    /// How many lines there are (a final line break starts an empty last line).
    var count: Int { starts.count }

    /// Line `number` (1-based) as characters, without its break; empty past the end.
    func line(_ number: Int) -> [Unicode.Scalar] {
        guard number >= 1, number <= count else { return [] }
        let slice = UnsafeBufferPointer(rebasing: bytes[starts[number - 1]..<ends[number - 1]])
        return Array(String(decoding: slice, as: UTF8.self).unicodeScalars)
    }
}

/// What a line holds, for judging its indentation.
struct LineShape: Equatable {
    /// 1-based column of the first character that is not a space (or a tab).
    var firstColumn: Int
    /// Columns where content starts: the first column, and after each leading
    /// `- ` the column of what follows it (`  - name: a` starts at 3 and 5).
    var contentColumns: [Int]
    /// Column of the first tab in the leading white space, if any.
    var tabColumn: Int?

    /// Nil for a blank line or a comment line, which indentation ignores.
    init?(_ line: [Unicode.Scalar]) {
        var index = 0
        var tab: Int?
        while index < line.count, line[index] == " " || line[index] == "\t" {
            if line[index] == "\t", tab == nil { tab = index + 1 }
            index += 1
        }
        guard index < line.count, line[index] != "#" else { return nil }
        firstColumn = index + 1
        tabColumn = tab
        contentColumns = [index + 1]
        while index + 1 < line.count, line[index] == "-", line[index + 1] == " " {
            index += 1
            while index < line.count, line[index] == " " { index += 1 }
            guard index < line.count, line[index] != "#" else { break }
            contentColumns.append(index + 1)
        }
    }
}

extension LineShape {
    /// The column of the line's last character before trailing space and a
    /// comment (a `#` after a space, outside quotes); 0 for a blank line.
    static func contentEnd(_ line: [Unicode.Scalar]) -> Int {
        var end = 0
        walk(line) { index, _ in
            if line[index] != " ", line[index] != "\t" { end = index + 1 }
            return true
        }
        return end
    }

    /// Walks `line` from `start` up to a comment: `body` is given each
    /// character's index and whether a quote holds it (its own quotes
    /// included), and returns false to stop. Returns where a comment begins
    /// (a `#` at the line's start or after a space or tab, outside quotes),
    /// if the walk reached one.
    @discardableResult
    static func walk(_ line: [Unicode.Scalar], from start: Int = 0, _ body: (_ index: Int, _ quoted: Bool) -> Bool) -> Int? {
        var quote: Unicode.Scalar?
        var index = max(0, start)
        while index < line.count {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
                guard body(index, true) else { return nil }
            } else if character == "#", index == 0 || line[index - 1] == " " || line[index - 1] == "\t" {
                return index
            } else {
                if character == "\"" || character == "'" { quote = character }
                guard body(index, quote != nil) else { return nil }
            }
            index += 1
        }
        return nil
    }
}
