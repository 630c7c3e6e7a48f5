import DeckGeometry
import Foundation
import Testing

@Suite("hold hint and wiggle")
struct HoldHintAndWiggleTests {
    let grid: DeckGrid

    init() throws {
        grid = try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3)
    }

    let bubble = CGSize(width: 220, height: 36)

    @Test func hintSitsAboveTheButton() throws {
        let hint = try #require(HoldHintPlacement(slot: 4, in: grid, bubbleSize: bubble))
        let cell = try #require(grid.frame(ofSlot: 4))
        #expect(hint.edge == .above)
        #expect(hint.frame.maxY == cell.minY - HoldHintPlacement.defaultGap)
        #expect(abs(hint.frame.midX - cell.midX) < 1e-9)
        #expect(hint.tailX == cell.midX)
        #expect(hint.tailTip == CGPoint(x: cell.midX, y: cell.minY))
    }

    @Test(arguments: [0, 1, 2])
    func hintGoesBelowOnTheTopRow(slot: Int) throws {
        let hint = try #require(HoldHintPlacement(slot: slot, in: grid, bubbleSize: bubble))
        let cell = try #require(grid.frame(ofSlot: slot))
        #expect(hint.edge == .below)
        #expect(hint.frame.minY == cell.maxY + HoldHintPlacement.defaultGap)
        #expect(hint.tailTip.y == cell.maxY)
    }

    @Test(arguments: [3, 5, 9, 11])
    func hintIsPulledInsideAtTheSidesWithItsTailOnTheButton(slot: Int) throws {
        let hint = try #require(HoldHintPlacement(slot: slot, in: grid, bubbleSize: bubble))
        let cell = try #require(grid.frame(ofSlot: slot))
        #expect(hint.frame.minX >= 0)
        #expect(hint.frame.maxX <= grid.size.width)
        #expect(hint.tailX == cell.midX, "the tail still points at the button's centre")
        #expect(hint.frame.minX == 0 || hint.frame.maxX == grid.size.width)
    }

    @Test func bubbleWiderThanTheGridIsCentredOnIt() throws {
        let hint = try #require(HoldHintPlacement(slot: 3, in: grid, bubbleSize: CGSize(width: 400, height: 30)))
        #expect(hint.frame.midX == grid.size.width / 2)
        #expect(HoldHintPlacement(slot: 12, in: grid, bubbleSize: bubble) == nil)
    }

    @Test func wiggleStaysWithinOneAndAHalfDegrees() {
        for step in 0..<500 {
            let angle = Wiggle.angle(at: Double(step) * 0.0137, slot: step % 12, reduceMotion: false)
            #expect(abs(angle) <= 1.5 + 1e-12)
        }
        // A quarter period past the zero crossing of slot 0 is the full tilt.
        #expect(abs(Wiggle.angle(at: 0.0625, slot: 0, reduceMotion: false) - 1.5) < 1e-9)
    }

    @Test func wiggleRepeatsEveryQuarterSecond() {
        for slot in 0..<12 {
            let a = Wiggle.angle(at: 3.01, slot: slot, reduceMotion: false)
            let b = Wiggle.angle(at: 3.26, slot: slot, reduceMotion: false)
            #expect(abs(a - b) < 1e-9)
        }
    }

    @Test func everySlotOfAPageHasItsOwnPhase() {
        let phases = (0..<12).map(Wiggle.phase(ofSlot:))
        #expect(Set(phases).count == 12)
        #expect(phases.allSatisfy { (0..<1).contains($0) })
    }

    @Test func reduceMotionStopsTheWiggle() {
        #expect(Wiggle.angle(at: 0.0625, slot: 0, reduceMotion: true) == 0)
        #expect(Wiggle.angle(at: 1.31, slot: 7, reduceMotion: true) == 0)
    }
}
