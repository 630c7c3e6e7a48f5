internal import CYAML

/// Where libyaml stopped at a syntax error, and its words for it.
struct SyntaxReport {
    /// libyaml's problem, as PROFILE.md §4 words it.
    var problem: String
    /// Where libyaml stopped, and its character index in the input.
    var mark: YAMLMark
    var index: Int
    /// The construct libyaml was reading ("while parsing a flow mapping") and where it starts.
    var context: String?
    var contextMark: YAMLMark
}

/// The line a person must fix for a syntax error, and the likely typo.
///
/// libyaml stops where the text stops making sense, which is often a line
/// after the typo: `name Disk space` followed by `action: …` fails at the
/// second line's colon, an unclosed quote at the next quote on a later line.
/// This works back from libyaml's report to the typo: a missing `:`, an
/// unclosed quote or bracket, indentation that matches no line above, a tab.
/// Nil when none of those explains the report; libyaml's words then stand.
struct SyntaxDiagnosis {
    /// The place to type, and what to type there.
    var mark: YAMLMark
    var message: String

    static func diagnose(_ report: SyntaxReport, input: UnsafeBufferPointer<UInt8>) -> SyntaxDiagnosis? {
        let lines = SourceLines(input)
        let tokens = TokenTrail.scan(input, before: report.index)
        // In order: the first that explains the report is the diagnosis.
        let checks: [() -> SyntaxDiagnosis?] = [
            { tab(report, lines) },
            { unicodeSpace(report, lines) },
            { report.context?.contains("flow") == true ? commentedColour(report, lines) : nil },
            { backslashEscape(report, lines) },
            { missingColonBeforeBracket(report, lines) },
            { unclosedQuote(report, tokens) },
            { missingComma(report, tokens, lines, input) },
            { missingColon(report, tokens, lines) },
            { dashWithoutSpace(report, lines) },
            { indentation(report, lines) },
            { unclosedBracket(report, lines) },
            { reservedStart(report, lines) },
        ]
        for check in checks {
            if let diagnosis = check() { return diagnosis }
        }
        return nil
    }

    /// A tab in the indentation of the line libyaml stopped on (YAML indents with spaces only).
    static func tab(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        let line = lines.line(report.mark.line)
        let atMark = report.mark.column <= line.count && line[report.mark.column - 1] == "\t"
        if let column = LineShape(line)?.tabColumn ?? (atMark ? report.mark.column : nil) {
            return SyntaxDiagnosis(mark: YAMLMark(line: report.mark.line, column: column),
                                   message: "a tab: YAML indents with spaces only; replace the tab with spaces")
        }
        return nil
    }

    /// A quoted scalar that runs past its line, or ends right where more text
    /// follows it: its opening quote is the one not closed.
    static func unclosedQuote(_ report: SyntaxReport, _ tokens: TokenTrail) -> SyntaxDiagnosis? {
        if report.context == "while scanning a quoted scalar" {
            return SyntaxDiagnosis(mark: report.contextMark,
                                   message: "unclosed quote: the quote opened here is never closed")
        }
        guard let last = tokens.last, last.isQuoted else { return nil }
        if last.start.line < last.end.line {
            return SyntaxDiagnosis(mark: last.start, message:
                "unclosed quote: the quote opened here runs on to line \(last.end.line), column \(last.end.column - 1); close it on this line")
        }
        if last.endIndex == report.index {
            return SyntaxDiagnosis(mark: last.start, message:
                "unclosed quote: the quote opened here ends at column \(last.end.column - 1), right before more text; is a closing quote missing?")
        }
        return nil
    }

    /// A key without its `:` on an earlier line, which libyaml read as the
    /// start of a longer text until the next line's colon.
    static func missingColon(_ report: SyntaxReport, _ tokens: TokenTrail, _ lines: SourceLines) -> SyntaxDiagnosis? {
        if report.problem == "could not find expected ':'", report.context == "while scanning a simple key" {
            return colonAfterFirstWord(at: report.contextMark, lines)
        }
        guard report.problem == "mapping values are not allowed here",
              let scalar = tokens.last, scalar.isPlain, scalar.start.line < report.mark.line else { return nil }
        let line = lines.line(scalar.start.line)
        guard let shape = LineShape(line), shape.contentColumns.contains(scalar.start.column) else {
            // The text is a value that the next line continued: that line is indented too far.
            let parent = LineShape(line)?.contentColumns.last ?? 1
            return SyntaxDiagnosis(mark: YAMLMark(line: report.mark.line, column: LineShape(lines.line(report.mark.line))?.firstColumn ?? 1),
                                   message: "indentation: this line is indented more than the key on line \(scalar.start.line) (column \(parent)), whose value is already given there; indent it like that key")
        }
        return colonAfterFirstWord(at: scalar.start, lines)
    }

    static func colonAfterFirstWord(at start: YAMLMark, _ lines: SourceLines) -> SyntaxDiagnosis {
        let line = lines.line(start.line)
        var end = start.column - 1
        while end < line.count, line[end] != " ", line[end] != "\t" { end += 1 }
        let word = String(String.UnicodeScalarView(line[(start.column - 1)..<end]))
        // `name:Terminal`: the colon is there; the space after it is not.
        if let colon = line[(start.column - 1)..<end].firstIndex(of: ":"), colon + 1 < end, colon > start.column - 1 {
            let key = String(String.UnicodeScalarView(line[(start.column - 1)..<colon]))
            let value = String(String.UnicodeScalarView(line[(colon + 1)..<max(colon + 1, LineShape.contentEnd(line))]))
            return SyntaxDiagnosis(mark: YAMLMark(line: start.line, column: colon + 2),
                                   message: "a space is missing after ':' in '\(key):\(value.prefix(20))'; a key and its value are written '\(key): \(value.prefix(20))'")
        }
        return SyntaxDiagnosis(mark: YAMLMark(line: start.line, column: end + 1),
                               message: "missing ':' after '\(word)'; a key and its value are written '\(word): value'")
    }

    /// The line libyaml stopped on starts at a column no line above it can
    /// share: not a sibling of the line before nor of any line it is inside.
    static func indentation(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        guard let shape = LineShape(lines.line(report.mark.line)), shape.firstColumn == report.mark.column else { return nil }
        var allowed: [(column: Int, line: Int)] = []
        var outermost = Int.max
        var number = report.mark.line - 1
        while number >= 1, outermost > 1 {
            if let above = LineShape(lines.line(number)), above.firstColumn < outermost {
                outermost = above.firstColumn
                allowed += above.contentColumns.map { ($0, number) }
            }
            number -= 1
        }
        let column = shape.firstColumn
        guard !allowed.isEmpty, !allowed.contains(where: { $0.column == column }) else { return nil }
        let around = [allowed.filter { $0.column < column }.max { $0.column < $1.column },
                      allowed.filter { $0.column > column }.min { $0.column < $1.column }]
            .compactMap { $0 }.map { "column \($0.column) (line \($0.line))" }
        return SyntaxDiagnosis(mark: report.mark, message:
            "indentation: this line starts at column \(column), but the lines it could belong with start at \(around.joined(separator: " or ")); line it up with its siblings")
    }

    /// A `[` or `{` not closed where libyaml expected its closer.
    static func unclosedBracket(_ report: SyntaxReport, _ lines: SourceLines) -> SyntaxDiagnosis? {
        let kinds = [("while parsing a flow sequence", "[", "]"), ("while parsing a flow mapping", "{", "}")]
        guard report.problem.hasPrefix("did not find expected ','"),
              let (_, opener, closer) = kinds.first(where: { $0.0 == report.context }),
              !bracketCloses(at: report.contextMark, lines) else { return nil }
        let start = report.contextMark
        // Opened on an earlier line: the closer belongs at the end of the last line before libyaml stopped.
        var mark = report.mark
        if start.line < report.mark.line {
            var number = report.mark.line - 1
            while number > start.line, LineShape(lines.line(number)) == nil { number -= 1 }
            mark = YAMLMark(line: number, column: LineShape.contentEnd(lines.line(number)) + 1)
        }
        let opened = start.line == mark.line ? "column \(start.column)" : "line \(start.line), column \(start.column)"
        return SyntaxDiagnosis(mark: mark, message: "unclosed bracket: a '\(closer)' is missing here to close the '\(opener)' at \(opened)")
    }
}

/// The last token libyaml's scanner finds before a position.
struct TokenTrail {
    struct Token {
        var start: YAMLMark
        var end: YAMLMark
        var startIndex: Int
        var endIndex: Int
        var isQuoted: Bool
        var isPlain: Bool
    }

    /// The last scalar or flow indicator that starts before `index`; block
    /// structure tokens (which mark no text) are skipped.
    var last: Token?

    static func scan(_ input: UnsafeBufferPointer<UInt8>, before index: Int) -> TokenTrail {
        var trail = TokenTrail()
        var parser = yaml_parser_t()
        guard let base = input.baseAddress, yaml_parser_initialize(&parser) == 1 else { return trail }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, input.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        var token = yaml_token_t()
        while yaml_parser_scan(&parser, &token) == 1 {
            defer { yaml_token_delete(&token) }
            let type = token.type
            if type == YAML_STREAM_END_TOKEN || type == YAML_NO_TOKEN || Int(token.start_mark.index) >= index { break }
            switch type {
            case YAML_BLOCK_MAPPING_START_TOKEN, YAML_BLOCK_SEQUENCE_START_TOKEN, YAML_BLOCK_END_TOKEN,
                 YAML_STREAM_START_TOKEN, YAML_KEY_TOKEN:
                continue
            default:
                let style = type == YAML_SCALAR_TOKEN ? token.data.scalar.style : YAML_ANY_SCALAR_STYLE
                trail.last = Token(
                    start: YAMLMark(line: Int(token.start_mark.line) + 1, column: Int(token.start_mark.column) + 1),
                    end: YAMLMark(line: Int(token.end_mark.line) + 1, column: Int(token.end_mark.column) + 1),
                    startIndex: Int(token.start_mark.index),
                    endIndex: Int(token.end_mark.index),
                    isQuoted: style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE,
                    isPlain: style == YAML_PLAIN_SCALAR_STYLE)
            }
        }
        return trail
    }
}
