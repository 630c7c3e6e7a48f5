import DeckModel
import Testing

@Suite("moving a button")
struct MoveTests {
    @Test func moveIntoEmptySlot() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files)])
        try layout.move(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 5, expecting: Fixture.files)
        #expect(layout.button(page: 0, index: 0) == nil)
        #expect(layout.button(page: 0, index: 5) == Fixture.files)
        #expect(layout.isNormal)
    }

    @Test func moveOntoFilledSlotSwaps() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal)])
        try layout.move(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, expecting: Fixture.files)
        #expect(layout.button(page: 0, index: 0) == Fixture.terminal)
        #expect(layout.button(page: 0, index: 1) == Fixture.files)
        #expect(layout.buttonCount == 2)
    }

    @Test func moveToSameSlotChangesNothing() throws {
        let before = try Fixture.layout([(0, 3, Fixture.files), (1, 0, Fixture.build)])
        var layout = before
        try layout.move(fromPage: 0, fromIndex: 3, toPage: 0, toIndex: 3, expecting: Fixture.files)
        #expect(layout == before)
    }

    @Test func moveAcrossPages() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files), (1, 4, Fixture.build)])
        try layout.move(fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 7, expecting: Fixture.files)
        #expect(layout.button(page: 1, index: 7) == Fixture.files)
        #expect(layout.button(page: 0, index: 0) == nil)
        // Page 0 is now empty but sits in the middle, so it stays.
        #expect(layout.pages.count == 3)
        #expect(layout.pages[0].isEmpty)
    }

    @Test func moveToTrailingEmptyPageAddsPage() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal)])
        #expect(layout.pages.count == 2)
        try layout.move(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 11, expecting: Fixture.terminal)
        #expect(layout.pages.count == 3)
        #expect(layout.button(page: 1, index: 11) == Fixture.terminal)
        #expect(layout.isNormal)
    }

    @Test func moveOffLastFilledPageTrimsTrailing() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files), (1, 2, Fixture.build)])
        #expect(layout.pages.count == 3)
        try layout.move(fromPage: 1, fromIndex: 2, toPage: 0, toIndex: 4, expecting: Fixture.build)
        #expect(layout.pages.count == 2)
        #expect(layout.button(page: 0, index: 4) == Fixture.build)
        #expect(layout.isNormal)
    }

    @Test func moveEmptyingMiddlePageKeepsIt() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files), (1, 0, Fixture.terminal), (2, 0, Fixture.build)])
        try layout.move(fromPage: 1, fromIndex: 0, toPage: 2, toIndex: 5, expecting: Fixture.terminal)
        #expect(layout.pages.count == 4)
        #expect(layout.pages[1].isEmpty)
        #expect(layout.isNormal)
    }

    @Test func moveRejectsStaleButton() throws {
        let before = try Fixture.layout([(0, 0, Fixture.files), (0, 1, Fixture.terminal)])
        var layout = before
        // Same name, different action: still another button.
        let lookalike = DeckButton(name: "Files", icon: "folder", action: .open("/"))
        #expect(throws: DeckModelError.stale(page: 0, index: 0, expected: "Files")) {
            try layout.move(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 2, expecting: lookalike)
        }
        #expect(throws: DeckModelError.stale(page: 0, index: 5, expected: "Files")) {
            try layout.move(fromPage: 0, fromIndex: 5, toPage: 0, toIndex: 2, expecting: Fixture.files)
        }
        #expect(layout == before)
    }

    static let outOfRange: [(Int, Int, Int, Int)] = [
        (-1, 0, 0, 1), (0, -1, 0, 1), (0, 12, 0, 1), (2, 0, 0, 1),
        (0, 0, -1, 1), (0, 0, 0, -1), (0, 0, 0, 12), (0, 0, 2, 0), (0, 0, 99, 99), (Int.max, 0, 0, 0),
    ]

    @Test(arguments: outOfRange)
    func moveOutOfRangeThrows(_ slots: (Int, Int, Int, Int)) throws {
        let before = try Fixture.layout([(0, 0, Fixture.files)])
        var layout = before
        #expect(throws: DeckModelError.self) {
            try layout.move(fromPage: slots.0, fromIndex: slots.1, toPage: slots.2, toIndex: slots.3, expecting: Fixture.files)
        }
        do {
            try layout.move(fromPage: slots.0, fromIndex: slots.1, toPage: slots.2, toIndex: slots.3, expecting: Fixture.files)
        } catch {
            guard case .outOfRange = error else {
                Issue.record("expected outOfRange, got \(error)")
                return
            }
            #expect(error.description.contains("does not exist"))
        }
        #expect(layout == before)
    }
}
