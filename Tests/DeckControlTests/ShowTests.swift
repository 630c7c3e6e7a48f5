@testable import DeckControl
import DeckModel
import Foundation
import Testing

/// `deckctl show`'s drawings of fixed layouts, compared with the stored
/// expected text in `Expected/`. After a deliberate change of the drawing,
/// run the tests once with DECK_UPDATE_EXPECTED=1 to rewrite those files, and
/// read the diff before committing it.
@Suite("show: layouts drawn as grids of boxes")
struct ShowTests {
    static let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected")

    static func compare(_ lines: [String], with name: String) throws {
        let file = expected.appendingPathComponent(name)
        let drawn = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["DECK_UPDATE_EXPECTED"] == "1" {
            try drawn.write(to: file, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(drawn == stored, "\(name) differs; DECK_UPDATE_EXPECTED=1 rewrites it")
    }

    @Test func phoneLayoutInThreeColumns() throws {
        let picture = LayoutPicture(layout: try ShowFixtures.desk(), profile: "default", revision: 14, locked: false)
        #expect(picture.columns == 3)
        try Self.compare(picture.lines(), with: "desk-3-columns.txt")
    }

    @Test func phoneLayoutAsATabletShowsItLocked() throws {
        let picture = LayoutPicture(layout: try ShowFixtures.desk(), profile: "default", revision: 15, locked: true, columns: 4)
        try Self.compare(picture.lines(), with: "desk-4-columns-locked.txt")
    }

    @Test func onePageAndTheEmptyPageAtTheEnd() throws {
        let picture = LayoutPicture(layout: try ShowFixtures.desk(), profile: "default", revision: 14, locked: false)
        try Self.compare(picture.lines(page: 2), with: "desk-page-2.txt")
        try Self.compare(picture.lines(page: 3), with: "desk-page-3-empty.txt")
    }

    /// A layout with no button (deckd on an empty layouts folder): its one
    /// page is not "the empty page at the end" a button could be moved to.
    @Test func aLayoutWithoutButtonsSaysHowToAddOne() throws {
        let picture = LayoutPicture(layout: try DeckLayout(), profile: "default", revision: 1, locked: false)
        #expect(picture.lines() == ["profile default, revision 1, unlocked", "",
                                    "page 0 is empty: the layout has no buttons yet (add one with 'deckctl set 0 0 --name N --run CMD')"])
    }

    @Test func tabletLayoutDefaultsToFourColumns() throws {
        let picture = LayoutPicture(layout: try ShowFixtures.tablet(), profile: "태블릿", revision: 3, locked: false)
        #expect(picture.columns == 4)
        try Self.compare(picture.lines(), with: "tablet-16-slots.txt")
    }

    @Test func aShortLastRowAndUnsafeLabels() throws {
        let picture = LayoutPicture(layout: try ShowFixtures.awkward(), profile: "odd\nname", revision: 1, locked: false)
        try Self.compare(picture.lines(), with: "awkward-10-slots.txt")
    }

    /// Whatever the labels, every line of a grid is exactly as wide as the
    /// grid's top border, and nothing passes 80 columns.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 8])
    func bordersLineUpAndFit(columns: Int) throws {
        for layout in [try ShowFixtures.desk(), try ShowFixtures.tablet(), try ShowFixtures.awkward()] {
            let lines = LayoutPicture(layout: layout, profile: "p", revision: 1, locked: true, columns: columns).lines()
            for line in lines { #expect(DisplayWidth.of(line) <= 80, "\(line)") }
            for line in lines where line.hasPrefix("│") {
                #expect(line.hasSuffix("│"))
            }
            let full = lines.filter { $0.hasPrefix("┌") }.map(DisplayWidth.of)
            for line in lines where line.hasPrefix("│") && line.filter({ $0 == "│" }).count == columns + 1 {
                #expect(full.contains(DisplayWidth.of(line)), "\(line)")
            }
        }
    }

    @Test(arguments: [(12, 3), (16, 4), (9, 3), (8, 4), (20, 4), (24, 3), (10, 3), (7, 3), (2, 2), (1, 1)])
    func defaultColumns(slots: Int, columns: Int) {
        #expect(LayoutPicture.defaultColumns(slotsPerPage: slots) == columns)
    }

    @Test func labelsAreCleanedOfControlsAndBidiOverrides() {
        #expect(Label.clean("a\nb\tc\u{7}d") == "a b c d")
        #expect(Label.clean("\u{202E}evil\u{202C}") == "evil")
        #expect(Label.clean("다음 페이지") == "다음 페이지")
    }
}

/// The fixed layouts the expected drawings are made from.
enum ShowFixtures {
    static func button(_ name: String, _ icon: String? = nil, _ action: DeckAction) -> DeckButton {
        DeckButton(name: name, icon: icon, action: action)
    }

    /// A phone profile: three pages (the middle one empty), icons by name and
    /// by emoji, Korean, a ZWJ emoji, labels too long for a box.
    static func desk() throws -> DeckLayout {
        var desk = [DeckButton?](repeating: nil, count: 12)
        desk[0] = button("Files", "folder", .open("~"))
        desk[1] = button("Terminal", "⌨️", .run(command: "x-terminal-emulator || true", cwd: "~"))
        desk[2] = button("Disk space", "💾", .run(command: "df -h . | tail -n 1"))
        desk[4] = button("A label far too long to fit inside one box", nil, .run(command: "make -C ~/src/app all install"))
        desk[5] = button("👨‍👩‍👧 Family", nil, .open("https://example.com/photos/family"))
        desk[7] = button("스트리밍 시작하기 버튼입니다", "🎥", .profile("streaming"))
        desk[9] = button("Count", "🔢", .plugin(id: "counter", command: "increment", settings: ["step": .int(2)]))
        desk[10] = button("이전 페이지", "⬅️", .page(.previous))
        desk[11] = button("다음 페이지", "➡️", .page(.next))
        var tools = [DeckButton?](repeating: nil, count: 12)
        tools[0] = button("First page", "⏮️", .page(.number(0)))
        tools[3] = button("e\u{301}te\u{301} café", "☕", .open("https://café.example"))
        tools[8] = button("日本語のラベル", "🇯🇵", .run(command: "echo こんにちは"))
        return try DeckLayout(slotsPerPage: 12, pages: [DeckPage(title: "Desk", buttons: desk),
                                                        DeckPage(title: "Spare", buttons: []),
                                                        DeckPage(title: "도구", buttons: tools)])
    }

    /// A tablet profile: 16 slots, shown 4 × 4.
    static func tablet() throws -> DeckLayout {
        var overview = [DeckButton?](repeating: nil, count: 16)
        overview[0] = button("Desk", "🖥️", .profile("default"))
        overview[3] = button("Page 2", "2️⃣", .page(.number(1)))
        overview[4] = button("카운터", "🔢", .plugin(id: "counter", command: "increment"))
        overview[15] = button("Log time", "🕒", .run(command: "date >> /tmp/deck-tablet.log", timeout: 5))
        return try DeckLayout(slotsPerPage: 16, pages: [DeckPage(title: "Overview", buttons: overview)])
    }

    /// Ten slots (a short last row) and labels with line breaks, tabs and a
    /// right-to-left override that must not reach the terminal.
    static func awkward() throws -> DeckLayout {
        var page = [DeckButton?](repeating: nil, count: 10)
        page[0] = button("two\nlines", nil, .run(command: "printf 'a\\tb'\n"))
        page[1] = button("\u{202E}desrever", nil, .open("x"))
        page[9] = button("last", nil, .page(.next))
        return try DeckLayout(slotsPerPage: 10, pages: [DeckPage(title: "tabs\tand\nbreaks", buttons: page)])
    }
}
