import DeckGeometry
import DeckGestures
import DeckModel
import Foundation
import Testing

/// Drives an ``ArrangeSession`` directly. Phone grid 390 × 560, 3 columns:
/// column x ranges [0, 120.67) [134.67, 255.33) [269.33, 390), rows
/// [0, 129.5) [143.5, 273) [287, 416.5) [430.5, 560).
struct SessionDriver {
    var session: ArrangeSession
    var log: [ArrangeOutput] = []

    init(filled: [(Int, Int)] = [(0, 0), (0, 1), (0, 4), (1, 4)], pages: Int = 3, page: Int = 0,
         arranging: Bool = false, protocolLevel: Int = 7) throws {
        let grid = try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3)
        session = try ArrangeSession(grid: grid, pageCount: pages, filled: Set(filled.map { SlotID(page: $0.0, index: $0.1) }),
                                     page: page, arranging: arranging, protocolLevel: protocolLevel)
    }

    @discardableResult
    mutating func send(_ event: ArrangeEvent) -> [ArrangeAction] {
        let out = session.handle(event)
        log += out
        return out.map(\.action)
    }

    mutating func down(_ x: CGFloat, _ y: CGFloat, _ t: TimeInterval) -> [ArrangeAction] { send(.touch(.down(CGPoint(x: x, y: y), at: t))) }
    mutating func move(_ x: CGFloat, _ y: CGFloat, _ t: TimeInterval) -> [ArrangeAction] { send(.touch(.move(CGPoint(x: x, y: y), at: t))) }
    mutating func up(_ x: CGFloat, _ y: CGFloat, _ t: TimeInterval) -> [ArrangeAction] { send(.touch(.up(CGPoint(x: x, y: y), at: t))) }
    mutating func tick(_ t: TimeInterval) -> [ArrangeAction] { send(.tick(t)) }
}

func slot(_ page: Int, _ index: Int) -> SlotID { SlotID(page: page, index: index) }

@Suite("arrange session")
struct ArrangeSessionTests {
    @Test func aShortTapRunsAndHoldsNothing() throws {
        var deck = try SessionDriver()
        #expect(deck.down(200, 60, 0).isEmpty)
        #expect(deck.session.deadline == 0.45)
        #expect(deck.up(202, 61, 0.1) == [.run(slot(0, 1))])
        #expect(deck.session.deadline == nil)
    }

    @Test func theHoldComesAtItsOwnInstantWithItsHint() throws {
        var deck = try SessionDriver()
        _ = deck.down(195, 208, 0)
        let held = deck.tick(0.71)
        guard case .hold(let source, let hint)? = held.first else { Issue.record("no hold: \(held)"); return }
        #expect(source == slot(0, 4))
        #expect(hint.canMove)
        #expect(hint.placement.edge == .above)
        #expect(hint.text == "release: settings, drag: move")
        #expect(deck.log.first?.time == 0.45)
        #expect(deck.session.scene.held == slot(0, 4))
        #expect(deck.session.scene.scale(of: slot(0, 4)) == 1.06)
        #expect(deck.session.scene.hint == hint)
        #expect(deck.up(195, 208, 0.81) == [.settings(slot(0, 4))])
        #expect(deck.session.scene.held == nil)
    }

    @Test func holdThenDragLiftsAndDrawsTheLiftedTileUnderTheFinger() throws {
        var deck = try SessionDriver()
        _ = deck.down(60, 60, 0)
        _ = deck.tick(0.46)
        _ = deck.move(70, 60, 0.5)
        #expect(deck.move(79.5, 60, 0.55).isEmpty, "9.5 points from the drag part's start: not yet")
        #expect(deck.move(80.21, 60, 0.6) == [.lift(slot(0, 0)), .arrange(true), .target(slot(0, 0))])
        let moved = deck.move(195, 208, 0.7)
        #expect(moved == [.target(slot(0, 4))])
        let scene = deck.session.scene
        #expect(scene.arranging)
        #expect(scene.hint == nil, "the hint disappears when the drag starts")
        #expect(scene.held == nil)
        #expect(scene.target == slot(0, 4))
        let lifted = try #require(scene.lifted)
        #expect(lifted.source == slot(0, 0))
        #expect(lifted.scale == 1.1)
        // The cell of slot 0 is centred at (60.33, 64.75); the finger went down at (60, 60) and is now at (195, 208).
        #expect(abs(lifted.center.x - (195 + 60.333_333 - 60)) < 0.001)
        #expect(abs(lifted.center.y - (208 + 64.75 - 60)) < 0.001)
        #expect(!scene.wiggles(slot(0, 0)), "the lifted one does not wiggle")
        #expect(scene.wiggles(slot(0, 1)))
        #expect(!scene.wiggles(slot(0, 2)), "empty slots do not wiggle")
        #expect(scene.rotation(of: slot(0, 1), at: 1.31, reduceMotion: true) == 0)
        #expect(deck.up(195, 208, 0.8) == [.move(from: slot(0, 0), to: slot(0, 4))])
        #expect(deck.session.filled.contains(slot(0, 0)), "a swap leaves both filled")
    }

    @Test func theHoldTimeIsFixedWhenTheTouchBegins() throws {
        var deck = try SessionDriver(arranging: true)
        _ = deck.down(195, 208, 0)
        #expect(deck.session.deadline == 0.01)
        #expect(deck.send(.app(.done, at: 0.005)) == [.arrange(false)])
        #expect(deck.tick(0.02).count == 1, "the touch keeps the arrange-mode hold time")
        _ = deck.up(195, 208, 0.3)
        _ = deck.down(195, 208, 1)
        #expect(deck.session.deadline == 1.45)
    }

    @Test func aLowProtocolLevelOnlyOffersSettings() throws {
        var deck = try SessionDriver(protocolLevel: 6)
        _ = deck.down(60, 60, 0)
        guard case .hold(_, let hint)? = deck.tick(0.5).first else { Issue.record("no hold"); return }
        #expect(!hint.canMove)
        #expect(hint.text == "release: settings")
        _ = deck.move(70, 60, 0.6)
        #expect(deck.move(300, 300, 0.7).isEmpty)
        #expect(deck.up(300, 300, 0.8) == [.settings(slot(0, 0))])
        deck.session.protocolLevel = 7
        _ = deck.down(60, 60, 1)
        _ = deck.tick(1.5)
        _ = deck.move(70, 60, 1.6)
        #expect(deck.move(300, 300, 1.7).first == .lift(slot(0, 0)))
    }

    @Test func edgeDwellFlipsAtItsDeadlineAndTellsWhenToWake() throws {
        var deck = try SessionDriver()
        _ = deck.down(60, 60, 0)
        _ = deck.tick(0.46)
        _ = deck.move(70, 60, 0.5)
        _ = deck.move(370, 300, 0.61)
        #expect(deck.session.deadline.map { abs($0 - 1.11) < 1e-9 } == true)
        #expect(deck.tick(1.09).isEmpty)
        #expect(deck.tick(1.12) == [.page(1), .target(slot(1, 8))])
        #expect(deck.session.scene.page == 1)
        #expect(deck.session.scene.stripOffset == -422)
        #expect(!deck.session.scene.stripFollowsFinger)
        #expect(deck.session.deadline.map { abs($0 - 1.81) < 1e-9 } == true)
        _ = deck.move(200, 300, 1.3)
        #expect(deck.session.deadline == nil, "leaving the zone resets the dwell")
    }

    @Test func pageSwipeFollowsTheFingerWithRubberBandAndSettles() throws {
        var deck = try SessionDriver()
        _ = deck.down(330, 300, 0)
        _ = deck.move(350, 300, 0.05)
        _ = deck.move(390, 300, 0.1)
        var scene = deck.session.scene
        #expect(scene.stripFollowsFinger)
        #expect(abs(scene.stripOffset - 20) < 1e-9, "past the first page the strip follows a third of the way")
        #expect(deck.up(390, 300, 0.31).isEmpty)
        scene = deck.session.scene
        #expect(!scene.stripFollowsFinger)
        #expect(scene.stripOffset == 0)
        _ = deck.down(330, 300, 1)
        _ = deck.move(300, 300, 1.05)
        _ = deck.move(250, 300, 1.1)
        #expect(abs(deck.session.scene.stripOffset + 80) < 1e-9, "one to one between pages")
    }

    @Test func aCancelDuringASwipeSettlesTheStrip() throws {
        var deck = try SessionDriver()
        _ = deck.down(330, 300, 0)
        _ = deck.move(250, 300, 0.05)
        #expect(deck.session.scene.stripFollowsFinger)
        #expect(deck.send(.touch(.cancel(at: 0.1))).isEmpty)
        #expect(deck.session.scene.stripOffset == 0)
        #expect(!deck.session.scene.stripFollowsFinger)
    }

    @Test func appEventsEndArrangeModeEvenWithoutATouch() throws {
        for event in [AppEvent.done, .hostLocked, .disconnected, .background] {
            var deck = try SessionDriver(arranging: true)
            #expect(deck.send(.app(event, at: 1)) == [.arrange(false)])
            #expect(deck.send(.app(event, at: 2)).isEmpty)
        }
    }

    @Test func showingTheHostLayoutReplacesWhatTheSessionKnows() throws {
        var deck = try SessionDriver(page: 2)
        var layout = DeckLayout.empty()
        try layout.set(page: 0, index: 2, button: DeckButton(name: "Mail", action: .open("mailto:a@b.c")))
        deck.session.show(layout)
        #expect(deck.session.pageCount == 2)
        #expect(deck.session.page == 1, "the page is kept inside the new layout")
        #expect(deck.session.filled == [slot(0, 2)])
    }

    @Test(arguments: [(0, 0), (2, 5), (3, 3), (1, -1)])
    func sessionsThatDoNotFitAreRefused(pages: Int, page: Int) throws {
        let grid = try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3)
        #expect(throws: DeckGesturesError.self) {
            try ArrangeSession(grid: grid, pageCount: pages, filled: [], page: page, protocolLevel: 7)
        }
        #expect(throws: DeckGesturesError.self) {
            try ArrangeSession(grid: grid, pageCount: 2, filled: [slot(0, 12)], protocolLevel: 7)
        }
    }

    @Test func movingOntoTheTrailingPageAddsAPage() throws {
        var deck = try SessionDriver(filled: [(0, 0)], pages: 2)
        _ = deck.down(60, 60, 0)
        _ = deck.tick(0.5)
        _ = deck.move(70, 60, 0.6)
        _ = deck.move(370, 300, 0.7)
        _ = deck.tick(1.3)
        _ = deck.move(200, 300, 1.4)
        #expect(deck.up(200, 300, 1.5) == [.move(from: slot(0, 0), to: slot(1, 7))])
        #expect(deck.session.pageCount == 3, "one trailing empty page again, as the host will normalize")
    }
}
