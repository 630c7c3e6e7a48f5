import DeckGeometry
import DeckTestSupport
import Foundation
import Testing

@Suite("slot under a point")
struct DeckGridTests {
    /// A phone: 390 × 560, 3 columns, 4 rows: cells 120.67 × 129.5, strides 134.67 and 143.5.
    let phone: DeckGrid
    /// A tablet: 800 × 500, 4 columns, 3 rows: cells 189.5 × 157.33, strides 203.5 and 171.33.
    let tablet: DeckGrid

    init() throws {
        phone = try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3)
        tablet = try DeckGrid(size: CGSize(width: 800, height: 500), columns: 4)
    }

    @Test func phoneHasThreeColumnsOfFourRows() {
        #expect(phone.rows == 4)
        #expect(abs(phone.cellSize.width - 120.667) < 0.001)
        #expect(abs(phone.cellSize.height - 129.5) < 0.001)
    }

    @Test(arguments: [
        (CGPoint(x: 60, y: 60), 0), (CGPoint(x: 200, y: 60), 1), (CGPoint(x: 370, y: 300), 8),
        (CGPoint(x: 200, y: 300), 7), (CGPoint(x: 0, y: 0), 0), (CGPoint(x: 389.99, y: 559.99), 11),
        (CGPoint(x: 134.67, y: 143.51), 4),
    ])
    func slotFromPointThreeColumns(point: CGPoint, slot: Int) {
        #expect(phone.slot(at: point) == slot)
    }

    @Test(arguments: [
        (CGPoint(x: 10, y: 10), 0), (CGPoint(x: 210, y: 10), 1), (CGPoint(x: 790, y: 10), 3),
        (CGPoint(x: 420, y: 200), 6), (CGPoint(x: 799.9, y: 499.9), 11),
    ])
    func slotFromPointFourColumns(point: CGPoint, slot: Int) {
        #expect(tablet.slot(at: point) == slot)
    }

    @Test(arguments: [
        CGPoint(x: 127.21, y: 60), // between columns 0 and 1
        CGPoint(x: 60, y: 136.21), // between rows 0 and 1
        CGPoint(x: 120.67, y: 60), // the right edge itself belongs to the gap
        CGPoint(x: 255.34, y: 287.01),
    ])
    func gapIsNoSlot(point: CGPoint) {
        #expect(phone.slot(at: point) == nil)
    }

    @Test(arguments: [
        CGPoint(x: -0.01, y: 60), CGPoint(x: 60, y: -3), CGPoint(x: 390.01, y: 60), CGPoint(x: 60, y: 560.01),
        CGPoint(x: 1000, y: 1000), CGPoint(x: CGFloat.nan, y: 10), CGPoint(x: CGFloat.infinity, y: 10),
    ])
    func outsideIsNoSlot(point: CGPoint) {
        #expect(phone.slot(at: point) == nil)
    }

    @Test func cellFrameMatchesSlotLookup() throws {
        var rng = SeededGenerator(seed: 7)
        for grid in [phone, tablet, try DeckGrid(size: CGSize(width: 333.3, height: 701.7), columns: 5, slotsPerPage: 13, spacing: 9.1)] {
            let frames = (0..<grid.slotsPerPage).map { grid.frame(ofSlot: $0)! }
            var points = (0..<4000).map { _ in
                CGPoint(x: CGFloat.random(in: -20...(grid.size.width + 20), using: &rng),
                        y: CGFloat.random(in: -20...(grid.size.height + 20), using: &rng))
            }
            // Every corner and edge midpoint of every cell: where rounding would bite.
            for frame in frames {
                for x in [frame.minX, frame.midX, frame.maxX, frame.maxX.nextDown] {
                    for y in [frame.minY, frame.midY, frame.maxY, frame.maxY.nextDown] { points.append(CGPoint(x: x, y: y)) }
                }
            }
            for point in points {
                let owners = frames.indices.filter { frames[$0].contains(point) }
                #expect(owners.count <= 1)
                #expect(grid.slot(at: point) == owners.first, "\(point) in \(grid)")
            }
        }
    }

    @Test func partlyUsedLastRowHasNoSlotsBeyondThePage() throws {
        let grid = try DeckGrid(size: CGSize(width: 300, height: 300), columns: 4, slotsPerPage: 10)
        #expect(grid.rows == 3)
        let unused = CGPoint(x: 290, y: 290)
        #expect(grid.slot(at: unused) == nil)
        #expect(grid.frame(ofSlot: 10) == nil)
        #expect(grid.frame(ofSlot: -1) == nil)
        #expect(grid.slot(at: CGPoint(x: 100, y: 290)) == 9)
    }

    @Test func invalidGridsAreRefusedWithAReason() {
        #expect(throws: DeckGeometryError.self) { try DeckGrid(size: CGSize(width: 390, height: 560), columns: 0) }
        #expect(throws: DeckGeometryError.self) { try DeckGrid(size: CGSize(width: 390, height: 560), columns: 13) }
        #expect(throws: DeckGeometryError.self) { try DeckGrid(size: CGSize(width: 20, height: 560), columns: 3) }
        #expect(throws: DeckGeometryError.self) { try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3, slotsPerPage: 0) }
        #expect(throws: DeckGeometryError.self) { try DeckGrid(size: CGSize(width: 390, height: 560), columns: 3, spacing: -1) }
        do {
            _ = try DeckGrid(size: CGSize(width: 20, height: 560), columns: 3)
        } catch {
            #expect(error.description.contains("too small"))
        }
    }
}
