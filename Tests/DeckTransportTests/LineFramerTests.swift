import Foundation
import Testing
@testable import DeckTransport

@Suite("line framing")
struct LineFramerTests {
    /// Feeds `chunks` in order; returns the lines and the last outcome.
    private func frame(_ chunks: [String], max: Int = 1 << 20, first: Int? = nil,
                       stopAfter: Int? = nil) -> ([String], LineFramer.Outcome, LineFramer) {
        var framer = LineFramer(maxLineBytes: max, maxFirstLineBytes: first)
        var lines: [String] = []
        var outcome = LineFramer.Outcome.consumed
        for chunk in chunks {
            let bytes = Array(chunk.utf8)
            outcome = bytes.withUnsafeBufferPointer { buffer in
                framer.feed(buffer) { line in
                    lines.append(String(decoding: line, as: UTF8.self))
                    return stopAfter.map { lines.count < $0 } ?? true
                }
            }
            if outcome != .consumed { break }
        }
        return (lines, outcome, framer)
    }

    @Test func coalescedLinesInOneRead() {
        let (lines, outcome, framer) = frame(["a\nbb\n\nccc\n"])
        #expect(lines == ["a", "bb", "", "ccc"])
        #expect(outcome == .consumed)
        #expect(framer.buffered.isEmpty)
    }

    @Test func everySplitPointGivesTheSameLines() {
        let text = "hello\n{\"type\":\"ping\"}\n\nxyz\n"
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            let first = String(decoding: bytes[..<cut], as: UTF8.self)
            let second = String(decoding: bytes[cut...], as: UTF8.self)
            let (lines, outcome, _) = frame([first, second])
            #expect(lines == ["hello", "{\"type\":\"ping\"}", "", "xyz"], "cut at \(cut)")
            #expect(outcome == .consumed)
        }
    }

    @Test func byteByByte() {
        let text = "one\ntwo\nthree"
        let (lines, _, framer) = frame(text.map { String($0) })
        #expect(lines == ["one", "two"])
        #expect(String(decoding: framer.buffered, as: UTF8.self) == "three")
    }

    @Test func carriageReturnIsKept() {
        #expect(frame(["a\r\n"]).0 == ["a\r"])
    }

    @Test func lineOfExactlyTheLimitPasses() {
        #expect(frame(["12345\n"], max: 5).0 == ["12345"])
        #expect(frame(["123", "45", "\n"], max: 5).0 == ["12345"])
        #expect(frame(["12345", "\nab\n"], max: 5).0 == ["12345", "ab"])
    }

    @Test func lineOverTheLimitIsTooLong() {
        #expect(frame(["123456\n"], max: 5).1 == .tooLong)
        #expect(frame(["ok\n123456\n"], max: 5).0 == ["ok"])
        #expect(frame(["ok\n123456\n"], max: 5).1 == .tooLong)
        #expect(frame(["123", "456\n"], max: 5).1 == .tooLong)
    }

    @Test func tooLongIsSeenBeforeTheLineEnds() {
        // A client streaming an endless line must not make the host buffer it.
        #expect(frame(["123456"], max: 5).1 == .tooLong)
        #expect(frame(["1234", "56"], max: 5).1 == .tooLong)
        #expect(frame(["12345"], max: 5).1 == .consumed)
    }

    @Test func stopKeepsTheRestForLater() {
        var (lines, outcome, framer) = frame(["a\nb\nc\npartial"], stopAfter: 1)
        #expect(lines == ["a"])
        #expect(outcome == .stopped)
        #expect(framer.holdsCompleteLines)
        var later: [String] = []
        let first = framer.deliverBuffered { later.append(String(decoding: $0, as: UTF8.self)); return later.count < 1 }
        #expect(first == .stopped)
        #expect(later == ["b"])
        let second = framer.deliverBuffered { later.append(String(decoding: $0, as: UTF8.self)); return true }
        #expect(second == .consumed)
        #expect(later == ["b", "c"])
        #expect(!framer.holdsCompleteLines)
        // The unfinished line continues with the next read.
        let bytes = Array("-end\n".utf8)
        let outcome2 = bytes.withUnsafeBufferPointer { buffer in
            framer.feed(buffer) { lines.append(String(decoding: $0, as: UTF8.self)); return true }
        }
        #expect(outcome2 == .consumed)
        #expect(lines == ["a", "partial-end"])
    }

    /// The first line (deckd's `hello`) has its own, lower limit; every
    /// later line the usual one, also when both come in one read.
    @Test func theFirstLineHasItsOwnLimit() {
        #expect(frame(["123456\n"], max: 10, first: 5).1 == .tooLong)
        #expect(frame(["123456"], max: 10, first: 5).1 == .tooLong, "seen before the line ends")
        #expect(frame(["123", "456"], max: 10, first: 5).1 == .tooLong)
        #expect(frame(["12345\n1234567890\n"], max: 10, first: 5).0 == ["12345", "1234567890"])
        #expect(frame(["12345\n", "1234567", "890\n"], max: 10, first: 5).0 == ["12345", "1234567890"])
        #expect(frame(["1\n12345678901\n"], max: 10, first: 5).1 == .tooLong)
        // Never above the limit of every line.
        #expect(frame(["123456\n"], max: 5, first: 100).1 == .tooLong)
        // After a stop, the held lines are later lines.
        var (_, _, framer) = frame(["a\n1234567890\n"], max: 10, first: 5, stopAfter: 1)
        var later: [String] = []
        #expect(framer.deliverBuffered { later.append(String(decoding: $0, as: UTF8.self)); return true } == .consumed)
        #expect(later == ["1234567890"])
    }

    @Test func heldLinesStillObeyTheLimit() {
        var (_, _, framer) = frame(["a\n1234567890\n"], max: 5, stopAfter: 1)
        #expect(framer.holdsCompleteLines)
        #expect(framer.deliverBuffered { _ in true } == .tooLong)
    }
}
