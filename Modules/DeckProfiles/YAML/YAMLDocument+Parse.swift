internal import CYAML

/// Bounds that keep a hostile or broken file from costing unbounded time or
/// memory. The defaults are far above any hand-written profile or manifest.
package struct YAMLLimits: Sendable {
    /// Largest input accepted, in bytes.
    package var maxBytes = 64 << 20
    /// Deepest nesting of sequences and mappings, aliases expanded.
    package var maxDepth = 128
    /// How many nodes aliases may add to the document when expanded. A
    /// "billion laughs" file stays tiny on disk but expands past any bound.
    package var maxAliasExpansion = 1_000_000
    /// How many different explicit tags a file may use (at most 65534).
    package var maxTags = 1_000
    /// How many encoding problems are listed one by one before a summary.
    package var maxEncodingProblems = 10
    /// Asked every ``giveUpInterval`` events: true stops the parse, and the
    /// document is ``YAMLDocument/abandoned`` (a newer version of the file waits).
    package var giveUp: (@Sendable () -> Bool)?
    /// How many events pass between two questions to ``giveUp`` (an atomic
    /// load is cheap, but not free on every scalar).
    package var giveUpInterval = 4_096

    /// The defaults.
    package init() {}
}

extension YAMLDocument {
    /// Parses one YAML document, recording every node's position.
    ///
    /// Never throws: problems go to ``problems``. Invalid UTF-8 bytes and
    /// disallowed control characters are each reported and read as U+FFFD, so
    /// the rest of the file is still checked; a syntax error, an alias bomb or
    /// nesting past the limit stops parsing and leaves ``root`` nil. A second
    /// document is reported and ignored.
    package static func parse(_ bytes: [UInt8], file: String, limits: YAMLLimits = YAMLLimits()) -> YAMLDocument {
        var builder = YAMLBuilder(file: file, limits: limits)
        // Node fields are 32-bit; 1 GiB keeps every offset (text may grow by half) inside them.
        let maxBytes = min(limits.maxBytes, 1 << 30)
        guard bytes.count <= maxBytes else {
            builder.document.problems.append(FileProblem(
                file: file, line: 1, column: 1, message: "the file is larger than \(maxBytes >> 20) MiB"))
            return builder.document
        }
        if let utf16 = utf16Evidence(bytes) {
            // One sentence, not a problem for every other byte.
            builder.document.problems.append(FileProblem(
                file: file, line: 1, column: 1, message: "the file is UTF-16 (\(utf16)); save it as UTF-8"))
            return builder.document
        }
        let body = withoutByteOrderMark(bytes)
        let encoding = EncodingCheck(body, maxProblems: limits.maxEncodingProblems)
        builder.document.problems = encoding.problems(file: file)
        let input = encoding.repaired ?? body
        builder.run(input)
        return builder.document
    }

    /// Why `bytes` look like UTF-16: its byte-order mark, or a NUL in every
    /// other byte of its start (text in ASCII saved as UTF-16 without a mark).
    static func utf16Evidence(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "it starts with a UTF-16 byte-order mark" }
        let start = bytes.prefix(16)
        guard start.count >= 8 else { return nil }
        for parity in 0...1 {
            let nuls = start.indices.filter { $0 % 2 == parity }
            if nuls.allSatisfy({ start[$0] == 0 }), start.indices.contains(where: { $0 % 2 != parity && start[$0] != 0 }) {
                return "every other byte of its start is NUL"
            }
        }
        return nil
    }

    /// `bytes` without a leading UTF-8 byte-order mark. The parser is told the
    /// input is UTF-8 (so UTF-16 is an error), and then libyaml no longer drops
    /// the mark itself: its scanner skips it as a character, the first line's
    /// keys land one column to the right, and `name: a` followed by `pages: []`
    /// becomes a syntax error. Dropping it here keeps columns as editors count them.
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }
}

extension YAMLBuilder {
    /// A syntax error at the line to fix, with the likely typo (``SyntaxDiagnosis``);
    /// then, where libyaml stopped elsewhere, its own words there as a note.
    /// libyaml's words alone when no typo explains them.
    func syntaxProblems(_ parser: yaml_parser_t, input: UnsafeBufferPointer<UInt8>) -> [FileProblem] {
        var problem = parser.problem.map { String(cString: $0) } ?? "the YAML parser failed"
        // PROFILE.md §4 words this error as "… not allowed here".
        if problem == "mapping values are not allowed in this context" { problem = "mapping values are not allowed here" }
        if parser.error == YAML_MEMORY_ERROR { problem = "out of memory while reading YAML" }
        if parser.error == YAML_READER_ERROR {
            let position = TextPosition.positions(ofOffsets: [parser.problem_offset], in: input)[0]
            return [document.problem("\(problem) (YAML syntax)", at: position)]
        }
        // At the end of a stream without a final line break, libyaml moves its
        // mark to the start of a line the file does not have (4:1 in a 3-line
        // file; fixture Fuzz/Crashes/profile/syntax-error-at-end-without-newline):
        // such a mark points at the end of the last line instead.
        let end = TextPosition.positions(ofOffsets: [input.count], in: input)[0]
        let mark = min(end, YAMLMark(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1))
        let context = parser.context.map { String(cString: $0) }
        let start = min(end, YAMLMark(line: Int(parser.context_mark.line) + 1, column: Int(parser.context_mark.column) + 1))
        var message = problem
        if let context {
            message += start == mark ? ", \(context)" : ", \(context) that starts at line \(start.line), column \(start.column)"
        }
        let libyaml = document.problem("\(message) (YAML syntax)", at: mark)
        guard parser.error != YAML_MEMORY_ERROR else { return [libyaml] }
        let report = SyntaxReport(problem: problem, mark: mark, index: Int(parser.problem_mark.index),
                                  context: context, contextMark: start)
        guard let diagnosis = SyntaxDiagnosis.diagnose(report, input: input) else { return [libyaml] }
        let typo = document.problem("\(diagnosis.message) (YAML syntax)", at: diagnosis.mark)
        guard diagnosis.mark != mark else { return [typo] }
        return [typo, document.problem("note: the YAML parser stopped here: \(message)", at: mark)]
    }
}

extension YAMLDocument {
    /// Runs libyaml over `bytes` and throws every event away: the floor a
    /// profile load is measured against (issue 10), set up exactly as
    /// ``parse(_:file:limits:)`` sets up the parser. Returns the number of
    /// events, or nil at a syntax error.
    package static func countEvents(_ bytes: [UInt8]) -> Int? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return withoutByteOrderMark(bytes).withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return 2 }  // stream start and end
            yaml_parser_set_input_string(&parser, base, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var event = yaml_event_t()
            var count = 0
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                let type = event.type
                yaml_event_delete(&event)
                count += 1
                if type == YAML_STREAM_END_EVENT { return count }
            }
        }
    }
}
