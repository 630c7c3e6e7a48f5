import DeckPluginKit
import DeckTestSupport
import Testing

/// Cutting a byte stream into lines, with a bound.
@Suite struct LineSplitterTests {
    private func split(_ chunks: [String], limit: Int = 10) -> [String] {
        var splitter = LineSplitter(limit: limit)
        var found: [String] = []
        let record: (LineSplitter.Piece) -> Void = { piece in
            switch piece {
            case .line(let bytes): found.append(String(decoding: bytes, as: UTF8.self))
            case .tooLong(let bytes): found.append("<too long: \(bytes)>")
            }
        }
        for chunk in chunks { splitter.append(Array(chunk.utf8), record) }
        splitter.finish(record)
        return found
    }

    @Test func linesAcrossChunks() {
        #expect(split(["ab", "c\nde", "f\n\ng"]) == ["abc", "def", "", "g"])
        #expect(split(["a\r\n", "b\r", "\n"]) == ["a", "b"], "CR before LF is removed")
        #expect(split([]) == [])
        #expect(split(["\n"]) == [""])
    }

    @Test func exactlyAtTheLimit() {
        #expect(split(["0123456789\n"]) == ["0123456789"])
        #expect(split(["01234", "56789", "\n"]) == ["0123456789"])
    }

    @Test func tooLongIsReportedBeforeItsEnd() {
        var splitter = LineSplitter(limit: 10)
        var pieces = 0
        splitter.append(Array("0123456789A".utf8)) { piece in
            if case .tooLong(let bytes) = piece { #expect(bytes == 11) }
            pieces += 1
        }
        #expect(pieces == 1, "reported as soon as the limit is passed, without a line feed")
        #expect(splitter.bufferedBytes == 0, "and nothing of it is kept")
        splitter.append(Array(String(repeating: "x", count: 100_000).utf8)) { _ in pieces += 1 }
        #expect(pieces == 1 && splitter.bufferedBytes == 0)
        splitter.append(Array("tail\nnext\n".utf8)) { piece in
            if case .line(let bytes) = piece { #expect(String(decoding: bytes, as: UTF8.self) == "next") }
            pieces += 1
        }
        #expect(pieces == 2, "the rest of the long line is skipped, the next line is whole")
    }

    @Test func tooLongThenMoreLines() {
        #expect(split(["short\n0123456789AB\nok\n"]) == ["short", "<too long: 12>", "ok"])
        #expect(split(["0123456789ABC"]) == ["<too long: 13>"], "an unfinished long line at the end is not delivered")
    }

    /// Random chunking never changes what comes out.
    @Test func randomChunking() {
        var generator = SeededGenerator(seed: 9)
        let text = (0..<200).map { index in String(repeating: "x", count: Int.random(in: 0...14, using: &generator)) + "\(index)" }
        let whole = text.joined(separator: "\n") + "\n"
        let expected = split([whole], limit: 16)
        for _ in 0..<50 {
            var chunks: [String] = []
            var rest = Substring(whole)
            while !rest.isEmpty {
                let size = Int.random(in: 1...40, using: &generator)
                chunks.append(String(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            #expect(split(chunks, limit: 16) == expected)
        }
        #expect(expected.contains { $0.hasPrefix("<too long") }, "the sample has long lines")
    }
}
