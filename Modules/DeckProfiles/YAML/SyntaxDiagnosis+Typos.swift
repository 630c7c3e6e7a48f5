// More typos a person makes in a profile by hand, each found where libyaml's
// report alone would send them to the wrong place or give no way out: a
// colour written `#1f6f3f` (a comment in YAML), a space that is not a space,
// a missing `,` in a `{…}`, a key without its `:` before a `{`, no space
// after `:` or `-`, a character that cannot start a value, a backslash in
// double quotes. A `: ` inside a value keeps libyaml's words at its place
// (PROFILE.md §4's own example).

extension SyntaxDiagnosis {
    /// The Unicode characters an editor or a web page turns spaces into; YAML
    /// takes none of them for a space.
    static let unicodeSpaces: [UInt32: String] = [
        0x00A0: "a no-break space (U+00A0)", 0x1680: "an Ogham space mark (U+1680)",
        0x202F: "a narrow no-break space (U+202F)", 0x205F: "a medium mathematical space (U+205F)",
        0x3000: "an ideographic space (U+3000)", 0xFEFF: "a zero-width no-break space (U+FEFF)",
    ].merging((UInt32(0x2000)...0x200B).map { ($0, "a Unicode space (U+\(String($0, radix: 16, uppercase: true)))") }) { a, _ in a }

    /// How far above libyaml's report a typo is looked for: enough for the
    /// lines of one button written over several lines.
    static let linesLookedBack = 50

    /// `key: #1f6f3f`: the `#` after a space starts a comment, so the colour is
    /// not read, and in a `{…}` neither is the rest of the line with its `}`.
    static func commentedColour(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        // libyaml may stop lines below, at the end of the file, where the `}` it never saw was due.
        let first = max(1, report.mark.line - linesLookedBack)
        for number in first...report.mark.line {
            if let found = commentedColour(in: lines.line(number)) {
                return SyntaxDiagnosis(mark: YAMLMark(line: number, column: found.column), message: found.message)
            }
        }
        return nil
    }

    /// The first `: #rgb` or `: #rrggbb` of a line outside quotes, and what to say about it.
    static func commentedColour(in line: [Unicode.Scalar]) -> (column: Int, message: String)? {
        guard let hash = LineShape.walk(line, { _, _ in true }), hash >= 2 else { return nil }
        var before = hash - 1
        while before > 0, line[before] == " " || line[before] == "\t" { before -= 1 }
        guard line[before] == ":" else { return nil }  // a comment of its own
        var end = hash + 1
        while end < line.count, line[end].properties.isASCIIHexDigit { end += 1 }
        let digits = end - hash - 1
        guard digits == 3 || digits == 6, end == line.count || " \t,}]".unicodeScalars.contains(line[end]) else { return nil }
        return (hash + 1, commentedColourMessage(String(String.UnicodeScalarView(line[hash..<end]))))
    }

    static func commentedColourMessage(_ colour: String) -> String {
        "'\(colour)' starts a comment in YAML, so the colour and the rest of the line are not read; "
            + "put the colour in quotes: \"\(colour)\""
    }

    /// Where an empty value is a colour written as a comment (`background: #1f6f3f`
    /// in a block mapping, which parses, as null): the `#`'s column, and the colour.
    /// `index` is the empty value's offset, right after its key's `:`.
    static func commentedColour(after index: Int, in input: UnsafeBufferPointer<UInt8>) -> (skipped: Int, colour: String)? {
        var hash = index
        while hash < input.count, input[hash] == 0x20 || input[hash] == 0x09 { hash += 1 }
        guard hash > index, hash < input.count, input[hash] == UInt8(ascii: "#") else { return nil }
        var end = hash + 1
        while end < input.count, Unicode.Scalar(input[end]).properties.isASCIIHexDigit { end += 1 }
        let digits = end - hash - 1
        guard digits == 3 || digits == 6,
              end == input.count || [0x20, 0x09, 0x0A, 0x0D].contains(input[end]) else { return nil }
        return (hash - index, String(decoding: UnsafeBufferPointer(rebasing: input[hash..<end]), as: UTF8.self))
    }

    /// A no-break or other Unicode space in the indentation, or right after
    /// a `:` or `-`, of the line libyaml stopped on or the two lines above it.
    static func unicodeSpace(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        for number in stride(from: report.mark.line, through: max(1, report.mark.line - 2), by: -1) {
            let line = lines.line(number)
            var index = 0
            while index < line.count, line[index] == " " || unicodeSpaces[line[index].value] != nil {
                if let name = unicodeSpaces[line[index].value] { return unicodeSpace(name, at: index, line: number) }
                index += 1
            }
            var found: SyntaxDiagnosis?
            LineShape.walk(line, from: index) { offset, quoted in
                guard !quoted, line[offset] == ":" || line[offset] == "-", offset + 1 < line.count,
                      let name = unicodeSpaces[line[offset + 1].value] else { return true }
                found = unicodeSpace(name, at: offset + 1, line: number)
                return false
            }
            if let found { return found }
        }
        return nil
    }

    private static func unicodeSpace(_ name: String, at index: Int, line: Int) -> SyntaxDiagnosis {
        SyntaxDiagnosis(mark: YAMLMark(line: line, column: index + 1),
                        message: "\(name): YAML indents and separates with plain spaces only; type a space instead")
    }

    /// `5 {name: …}` or `buttons [ … ]`: a key whose `:` is missing before a
    /// `{` or `[`, which libyaml reads as part of a longer text.
    static func missingColonBeforeBracket(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        let line = lines.line(report.mark.line)
        guard let shape = LineShape(line), let start = shape.contentColumns.last.map({ $0 - 1 }),
              start < line.count, !"\"'{[#-&*!|>".unicodeScalars.contains(line[start]) else { return nil }
        var end = start
        while end < line.count, line[end] != " ", line[end] != ":" { end += 1 }
        guard end < line.count, line[end] == " " else { return nil }
        var next = end
        while next < line.count, line[next] == " " { next += 1 }
        guard next < line.count, line[next] == "{" || line[next] == "[" else { return nil }
        return colonAfterFirstWord(at: YAMLMark(line: report.mark.line, column: start + 1), lines)
    }

    /// In a `{…}` or `[…]`, a plain text that runs into libyaml's stop: two
    /// entries without the `,` between them (`{name: Files icon: folder}`),
    /// or one value with a `: ` in it (`{name: Build: fast}`).
    static func missingComma(_ report: SyntaxReport, _ tokens: TokenTrail, _ lines: SourceLines,
                             _ input: UnsafeBufferPointer<UInt8>) -> SyntaxDiagnosis? {
        let kinds = ["while parsing a flow mapping": "{…}", "while parsing a flow sequence": "[…]"]
        guard report.problem.hasPrefix("did not find expected ','"), let brackets = report.context.flatMap({ kinds[$0] }),
              let last = tokens.last, last.isPlain, last.endIndex == report.index,
              last.startIndex < last.endIndex, last.endIndex <= input.count,
              bracketCloses(at: report.contextMark, lines) else { return nil }
        // The last gap of white space inside the text: the `,` belongs right before it.
        // Without one, the text is a value with a `: ` in it: libyaml's words stand.
        var gapEnd = last.endIndex
        while gapEnd > last.startIndex, !isBlank(input[gapEnd - 1]) { gapEnd -= 1 }
        guard gapEnd > last.startIndex else { return nil }
        var gapStart = gapEnd
        while gapStart > last.startIndex, isBlank(input[gapStart - 1]) { gapStart -= 1 }
        let word = String(decoding: UnsafeBufferPointer(rebasing: input[gapEnd..<last.endIndex]), as: UTF8.self)
        let mark = TextPosition.positions(ofOffsets: [gapStart], in: input)[0]
        return SyntaxDiagnosis(mark: mark, message: "missing ',' before '\(word)': the entries of a \(brackets) are separated by commas")
    }

    /// True when the `{` or `[` at `opener` is closed somewhere after it,
    /// counting brackets outside quotes and comments: then libyaml stopped at
    /// something inside it, not at its missing end.
    static func bracketCloses(at opener: YAMLMark, _ lines: SourceLines) -> Bool {
        var depth = 0
        var closed = false
        for number in opener.line...max(opener.line, lines.count) where !closed {
            let line = lines.line(number)
            LineShape.walk(line, from: number == opener.line ? opener.column - 1 : 0) { index, quoted in
                guard !quoted else { return true }
                if line[index] == "{" || line[index] == "[" { depth += 1 }
                if line[index] == "}" || line[index] == "]" {
                    depth -= 1
                    closed = depth == 0
                }
                return !closed
            }
        }
        return closed
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `-{id: idle}` among `- {id: live}` items: a list item needs a space after its dash.
    static func dashWithoutSpace(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        for number in stride(from: report.mark.line, through: max(1, report.mark.line - 2), by: -1) {
            let line = lines.line(number)
            guard let shape = LineShape(line) else { continue }
            let dash = shape.firstColumn - 1
            guard line[dash] == "-", dash + 1 < line.count, !" -".unicodeScalars.contains(line[dash + 1]) else { continue }
            // Only where the lines around are list items at this column.
            let siblings = (max(1, number - 3)...(number + 3)).filter { $0 != number }.contains { other in
                let text = lines.line(other)
                guard let around = LineShape(text), around.firstColumn == shape.firstColumn else { return false }
                return text.count > dash + 1 && text[dash] == "-" && text[dash + 1] == " "
            }
            guard siblings else { continue }
            let item = String(String.UnicodeScalarView(line[(dash + 1)...])).trimmingSpaces
            return SyntaxDiagnosis(mark: YAMLMark(line: number, column: dash + 2),
                                   message: "a space is missing after '-': a list item is written '- \(item)'")
        }
        return nil
    }

    /// `name: @home`, `run: \`date\``: a character that no plain value may start with.
    static func reservedStart(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        let mark: YAMLMark
        var why = ""
        if report.problem == "found character that cannot start any token" {
            mark = report.mark
        } else if report.context == "while scanning an alias" || report.context == "while scanning an anchor" {
            // `*Important*`: a `*` or `&` names an alias or anchor, which a word must follow.
            mark = report.contextMark
            why = report.context == "while scanning an alias" ? " (it starts an alias)" : " (it starts an anchor)"
        } else {
            return nil
        }
        let line = lines.line(mark.line)
        let start = mark.column - 1
        guard start < line.count else { return nil }
        var end = start
        while end < line.count, !",}]".unicodeScalars.contains(line[end]),
              !(line[end] == "#" && end > 0 && line[end - 1] == " ") { end += 1 }
        let value = String(String.UnicodeScalarView(line[start..<end])).trimmingSpaces
        return SyntaxDiagnosis(mark: mark, message:
            "a value cannot start with '\(line[start])' in YAML\(why); put it in quotes: \"\(value)\"")
    }

    /// `"C:\Users\me"`: in double quotes a backslash starts an escape.
    static func backslashEscape(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        guard report.context == "while parsing a quoted scalar" else { return nil }
        let line = lines.line(report.mark.line)
        var backslash = min(report.mark.column - 1, line.count - 1)
        while backslash >= 0, line[backslash] != "\\" { backslash -= 1 }
        guard backslash >= 0 else { return nil }
        return SyntaxDiagnosis(mark: YAMLMark(line: report.mark.line, column: backslash + 1), message:
            "in double quotes a backslash starts an escape such as \\n or \\u00e9; write the text in single quotes "
            + "('C:\\Users\\me'), or each backslash twice")
    }
}

private extension String {
    var trimmingSpaces: String {
        var scalars = Array(unicodeScalars)
        while scalars.last == " " { scalars.removeLast() }
        while scalars.first == " " { scalars.removeFirst() }
        return String(String.UnicodeScalarView(scalars))
    }
}
