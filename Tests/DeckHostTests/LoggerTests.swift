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

    /// An audit's slow log reader held every client: a full log drops lines and says how many.
    @Test func aFullLogDropsLinesInsteadOfWaitingAndThenSaysHowMany() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let logger = Logger(minimum: .info, descriptor: ends[1])
        // Far more than a pipe holds (64 KiB), and nobody reads: without the drop this never returns.
        for number in 0..<2_000 { logger.info("line \(number) " + String(repeating: "x", count: 80)) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        var kept: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            kept += buffer[0..<count]
        }
        let first = String(decoding: kept, as: UTF8.self).split(separator: "\n")
        #expect(first.count < 2_000 && first.count > 100, "\(first.count) lines kept")
        #expect(first.last?.hasPrefix("20") == true && first.last?.contains(" info line ") == true, "whole lines only")
        logger.info("after")
        let count = read(ends[0], &buffer, buffer.count)
        let after = String(decoding: buffer[0..<max(0, count)], as: UTF8.self).split(separator: "\n")
        #expect(after.count == 2)
        #expect(after.first?.hasSuffix(" warning \(2_000 - first.count) log lines were dropped: the log's reader was too slow, "
            + "and deckd does not wait for it") == true, "\(after)")
        #expect(after.last?.hasSuffix(" info after") == true)
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

    @Test func aTurnsLinesGoOutTogetherAndWholeInWritesOfAtMostPipeBuf() throws {
        let short = (0..<5).map { (level: LogLevel.info, message: "moved 'A' 0/\($0) -> 1/0 by editor \($0)") }
        let writes = try written([(.debug, "hidden")] + short)
        #expect(writes.count == 1)
        #expect(writes.first?.split(separator: "\n").map { String($0.drop { $0 != " " }.dropFirst()) }
                == short.map { "info \($0.message)" })

        // 40 lines of ~200 bytes: several writes, each of whole lines and within PIPE_BUF.
        let long = (0..<40).map { (level: LogLevel.warning, message: "\($0) " + String(repeating: "x", count: 170)) }
        let chunks = try written(long)
        #expect(chunks.count > 1)
        for chunk in chunks {
            #expect(chunk.utf8.count <= Logger.chunkBytes)
            #expect(chunk.hasSuffix("\n"))
        }
        let lines = chunks.joined().split(separator: "\n")
        #expect(lines.count == long.count)
        for (index, line) in lines.enumerated() { #expect(line.hasSuffix("warning \(index) " + String(repeating: "x", count: 170))) }
    }

    /// Each `write` of `Logger.log(_:)` for `lines`, as a message of a
    /// SOCK_SEQPACKET socket keeps the bounds of each write.
    private func written(_ lines: [(level: LogLevel, message: String)]) throws -> [String] {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &ends) == 0)
        defer { close(ends[0]) }
        Logger(minimum: .info, descriptor: ends[1]).log(lines)
        close(ends[1])
        return Self.reads(ends[0]).map { String(decoding: $0, as: UTF8.self) }
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
        return String(decoding: Self.reads(ends[0]).joined(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// What each `read` of `descriptor` returned, until its end.
    private static func reads(_ descriptor: Int32) -> [[UInt8]] {
        var reads: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return reads }
            reads.append(Array(buffer[0..<count]))
        }
    }
}
