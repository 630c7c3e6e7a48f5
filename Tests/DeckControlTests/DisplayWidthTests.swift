@testable import DeckControl
import Testing

@Suite("Display width of labels")
struct DisplayWidthTests {
    @Test(arguments: [
        ("Files", 5),
        ("", 0),
        ("다음 페이지", 11),            // Hangul syllables are wide
        ("日本語", 6), ("ｱ", 1), ("Ａ", 2), // halfwidth katakana narrow, fullwidth Latin wide
        ("e\u{301}", 1),               // a combining accent adds nothing
        ("\u{1100}\u{1161}\u{11A8}", 2), // conjoining jamo: one syllable, two columns
        ("🎥", 2), ("⏱️", 2), ("⌨️", 2), ("☕", 2),
        ("☺", 1), ("☺️", 2),           // text presentation unless the emoji selector asks
        ("👨‍👩‍👧", 2), ("👍🏽", 2), ("🇰🇷", 2), ("1️⃣", 2), ("#️⃣", 2),
        ("a\u{200B}b", 2),             // zero-width space
        ("\u{1FAE8}", 2),              // an emoji newer than the width table (Unicode 15)
        ("│─┌", 3),
    ] as [(String, Int)])
    func columns(_ text: String, _ expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func truncationCountsColumnsAndNeverSplitsACharacter() {
        #expect(DisplayWidth.truncate("Files", to: 5) == "Files")
        #expect(DisplayWidth.truncate("Files!", to: 5) == "File…")
        #expect(DisplayWidth.truncate("다음 페이지", to: 6) == "다음…")   // 2 + 2 + … ; the space would not fit before a wide one
        #expect(DisplayWidth.truncate("다음페이지", to: 6) == "다음…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", to: 5) == "👨‍👩‍👧👨‍👩‍👧…")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        #expect(DisplayWidth.truncate("abc", to: 1) == "…")
        for width in 1...12 {
            #expect(DisplayWidth.of(DisplayWidth.truncate("스트리밍 🎥 시작", to: width)) <= width)
        }
    }

    @Test func paddingFillsToTheColumn() {
        #expect(DisplayWidth.pad("한", to: 4) == "한  ")
        #expect(DisplayWidth.pad("wide", to: 2) == "wide")
    }

    @Test func theWideTableIsSortedAndDisjoint() {
        let ranges = DisplayWidth.wideRanges
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(earlier.upperBound < later.lowerBound) }
        #expect(DisplayWidth.isWide(0xAC00) && DisplayWidth.isWide(0x20000) && !DisplayWidth.isWide(0x41))
    }
}
