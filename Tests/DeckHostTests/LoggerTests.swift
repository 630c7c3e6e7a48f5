import Glibc
import Testing
@testable import DeckHost

/// The log's lines as a reader sees them: escaped so nothing can forge a
/// line, cut at the backstop, and stamped to the second.
@Suite struct LoggerTests {
    /// What a message becomes in the line; the printable-ASCII ones take the fast path.
    static let escapes: [(String, String)] = [
        ("pressed 'A' at 0/0 by bench", "pressed 'A' at 0/0 by bench"),
        ("", ""),
        ("two\nlines\r\tand a tab", "two\\nlines\\r\\tand a tab"),
        ("bell \u{07} del \u{7F}", "bell \\u{07} del \\u{7F}"),
        ("C1 \u{85} and separators \u{2028}\u{2029}", "C1 \\u{0085} and separators \\u{2028}\\u{2029}"),
        ("café ✓ 안녕 😀", "café ✓ 안녕 😀"),
        ("mixed é\nnext", "mixed é\\nnext"),
    ]

    @Test(arguments: escapes)
    func aMessageIsEscapedAsBefore(message: String, expected: String) {
        var line: [UInt8] = []
        Logger.appendEscaped(message, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == expected)
    }

    @Test func linesAreStampedLevelledAndEndedOnePerWrite() throws {
        let lines = try logged { logger in
            logger.info("one")
            logger.warning("two\nforged 2026-01-01T00:00:00Z error x")
            logger.debug("hidden")
        }
        #expect(lines.count == 2)
        for line in lines { #expect(Self.startsWithStamp(line), "\(line)") }
        #expect(lines[0].hasSuffix("Z info one"))
        #expect(lines[1].hasSuffix("Z warning two\\nforged 2026-01-01T00:00:00Z error x"))
    }

    @Test func aLongLineIsCutAndSaysHowMuch() throws {
        let lines = try logged { $0.info(String(repeating: "é", count: Logger.maximumLineBytes)) }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.utf8.count < Logger.maximumLineBytes + 64)
        #expect(line.hasSuffix(" more bytes not logged)"))
        #expect(!line.contains("\u{FFFD}"))  // never half a character
    }

    @Test func theStampOfASecondIsMadeOnceAndChangesWithTheSecond() {
        var stamp = Logger.Stamp()
        let first = stamp.bytes(for: 1_796_320_000)
        #expect(String(decoding: first, as: UTF8.self) == UTCTime.format(1_796_320_000))
        #expect(stamp.bytes(for: 1_796_320_000) == first)
        #expect(String(decoding: stamp.bytes(for: 1_796_320_001), as: UTF8.self) == UTCTime.format(1_796_320_001))
    }

    /// `2026-12-03T18:05:00Z ` at the start: digits where digits go, and the separators.
    private static func startsWithStamp(_ line: String) -> Bool {
        let shape = Array("0000-00-00T00:00:00Z ".utf8), bytes = Array(line.utf8.prefix(shape.count))
        guard bytes.count == shape.count else { return false }
        return zip(shape, bytes).allSatisfy { want, got in want == 0x30 ? (0x30...0x39).contains(got) : want == got }
    }

    /// The lines `body` logs at info and above, read back from a pipe.
    private func logged(_ body: (Logger) -> Void) throws -> [String] {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        body(Logger(minimum: .info, descriptor: ends[1]))
        close(ends[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
