import DeckModel
import Testing

@Suite("set, clear and normal form")
struct EditTests {
    @Test func setFillsAndReplaces() throws {
        var layout = DeckLayout.empty()
        try layout.set(page: 0, index: 2, button: Fixture.files)
        try layout.set(page: 0, index: 2, button: Fixture.terminal)
        #expect(layout.button(page: 0, index: 2) == Fixture.terminal)
        #expect(layout.pages.count == 2)
    }

    @Test func setRefusesInvalidButtonAndChangesNothing() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files)])
        let before = layout
        #expect(throws: DeckModelError.self) {
            try layout.set(page: 0, index: 1, button: DeckButton(name: "  ", action: .open("~")))
        }
        #expect(throws: DeckModelError.self) {
            try layout.set(page: 0, index: 1, button: DeckButton(name: "x", action: .run(command: "true", timeout: -1)))
        }
        #expect(throws: DeckModelError.self) {
            try layout.set(page: 5, index: 1, button: Fixture.files)
        }
        #expect(layout == before)
    }

    @Test func clearWithExpectation() throws {
        var layout = try Fixture.layout([(0, 0, Fixture.files), (1, 0, Fixture.build)])
        #expect(throws: DeckModelError.stale(page: 0, index: 0, expected: "Build")) {
            try layout.clear(page: 0, index: 0, expecting: Fixture.build)
        }
        #expect(throws: DeckModelError.stale(page: 0, index: 3, expected: "Files")) {
            try layout.clear(page: 0, index: 3, expecting: Fixture.files)
        }
        try layout.clear(page: 1, index: 0, expecting: Fixture.build)
        #expect(layout.pages.count == 2)
        try layout.clear(page: 0, index: 7)  // already empty: no change, no error
        #expect(layout.buttonCount == 1)
    }

    @Test func normalizeTrimsTrailingAndKeepsMiddle() throws {
        let pages = [DeckPage.empty(slots: 12), DeckPage(buttons: [Fixture.files]), .empty(slots: 12), .empty(slots: 12)]
        let layout = try DeckLayout(pages: pages)
        #expect(layout.pages.count == 3)
        #expect(layout.pages[0].isEmpty)
        #expect(layout.isNormal)
        #expect(DeckLayout.empty().pages.count == 1)
        #expect(DeckLayout.empty().isNormal)
    }

    @Test func layoutShapeIsChecked() {
        #expect(throws: DeckModelError.self) { try DeckLayout(slotsPerPage: 0) }
        #expect(throws: DeckModelError.self) { try DeckLayout(slotsPerPage: 100_000) }
        #expect(throws: DeckModelError.self) {
            try DeckLayout(slotsPerPage: 2, pages: [DeckPage(buttons: [nil, nil, nil])])
        }
    }

    @Test func pageTargetsStayInsideTheLayout() {
        #expect(PageTarget.next.resolve(from: 0, pageCount: 3) == 1)
        #expect(PageTarget.next.resolve(from: 2, pageCount: 3) == 2)
        #expect(PageTarget.previous.resolve(from: 0, pageCount: 3) == 0)
        #expect(PageTarget.number(7).resolve(from: 0, pageCount: 3) == 2)
        #expect(PageTarget.number(-4).resolve(from: 1, pageCount: 3) == 0)
    }

    @Test func errorsReadAsSentences() {
        let stale = DeckModelError.stale(page: 0, index: 1, expected: "Files")
        #expect(stale.description == "slot 0/1 no longer holds 'Files'")
        let page = DeckModelError.outOfRange(page: 4, index: 0, pageCount: 2, slotsPerPage: 12)
        #expect(page.description == "page 4 does not exist (the layout has pages 0 to 1)")
        let slot = DeckModelError.outOfRange(page: 0, index: 12, pageCount: 2, slotsPerPage: 12)
        #expect(slot.description == "slot 12 does not exist (a page has slots 0 to 11)")
    }
}

@Suite("plugin settings bounds")
struct SettingsBoundsTests {
    static func nested(_ levels: Int) -> [String: DeckValue] {
        var value = DeckValue.object(["k": .int(1)])
        for _ in 1..<levels { value = .object(["k": value]) }
        guard case .object(let object) = value else { return ["k": value] }
        return object
    }

    @Test func depthIsBoundedSoEveryLayoutFitsAProtocolLine() throws {
        let deepest = DeckButton(name: "ok", action: .plugin(id: "p", command: "c", settings: Self.nested(16)))
        try deepest.validate()
        let tooDeep = DeckButton(name: "deep", action: .plugin(id: "p", command: "c", settings: Self.nested(17)))
        #expect(throws: DeckModelError.invalidButton("button 'deep': settings nest more than 16 levels deep")) {
            try tooDeep.validate()
        }
        let inList = DeckButton(name: "list", action: .plugin(id: "p", command: "c",
                                                              settings: ["a": .array([.object(Self.nested(16))])]))
        #expect(throws: DeckModelError.self) { try inList.validate() }
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan])
    func nonFiniteNumbersAreRefused(_ number: Double) {
        let button = DeckButton(name: "n", action: .plugin(id: "p", command: "c", settings: ["x": .array([.double(number)])]))
        #expect(throws: DeckModelError.self) { try button.validate() }
    }
}
