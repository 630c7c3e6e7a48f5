import DeckModel
import Foundation

/// One page of slots laid out as cells in rows and columns, in the grid's own
/// coordinate space: (0, 0) is the top-left corner of the visible page.
///
/// Cells are equal, `spacing` points apart; the last row may be partly used
/// when `slotsPerPage` is not a multiple of `columns`. Points in the gaps
/// between cells, and outside the grid, belong to no slot.
public struct DeckGrid: Hashable, Sendable {
    /// The default distance between two cells, in points.
    public static let defaultSpacing: CGFloat = 14

    /// The size of one page, in points.
    public let size: CGSize
    /// Cells per row: 3 on a phone, 4 on a tablet.
    public let columns: Int
    /// Slots on a page.
    public let slotsPerPage: Int
    /// Points between two neighbouring cells, across and down.
    public let spacing: CGFloat

    /// Makes a grid, refusing numbers that leave no drawable cell.
    public init(
        size: CGSize, columns: Int,
        slotsPerPage: Int = DeckConstants.defaultSlotsPerPage,
        spacing: CGFloat = DeckGrid.defaultSpacing
    ) throws(DeckGeometryError) {
        guard (1...DeckConstants.maximumSlotsPerPage).contains(slotsPerPage) else {
            throw .invalidGrid("a page holds 1 to \(DeckConstants.maximumSlotsPerPage) slots, not \(slotsPerPage)")
        }
        guard (1...slotsPerPage).contains(columns) else {
            throw .invalidGrid("columns must be between 1 and the \(slotsPerPage) slots of a page, not \(columns)")
        }
        guard spacing >= 0, spacing.isFinite else {
            throw .invalidGrid("cell spacing must be zero or more points, not \(spacing)")
        }
        self.size = size
        self.columns = columns
        self.slotsPerPage = slotsPerPage
        self.spacing = spacing
        let cell = cellSize
        guard size.width.isFinite, size.height.isFinite, cell.width > 0, cell.height > 0 else {
            throw .invalidGrid("a \(size.width) × \(size.height) grid is too small for \(columns) columns "
                + "and \(rows) rows \(spacing) points apart")
        }
    }

    /// Rows on a page (the last one may be partly used).
    public var rows: Int { (slotsPerPage + columns - 1) / columns }

    /// The size of one cell.
    public var cellSize: CGSize {
        CGSize(width: (size.width - spacing * CGFloat(columns - 1)) / CGFloat(columns),
               height: (size.height - spacing * CGFloat(rows - 1)) / CGFloat(rows))
    }

    /// The row of a slot (0 at the top).
    public func row(ofSlot slot: Int) -> Int { slot / columns }

    /// The column of a slot (0 at the left).
    public func column(ofSlot slot: Int) -> Int { slot % columns }

    /// The cell of `slot`, or nil when the page has no such slot.
    ///
    /// The frame holds exactly the points that ``slot(at:)`` maps to `slot`:
    /// its left and top edges belong to it, its right and bottom edges do not
    /// (as `CGRect.contains` counts them).
    public func frame(ofSlot slot: Int) -> CGRect? {
        guard (0..<slotsPerPage).contains(slot) else { return nil }
        let cell = cellSize
        return CGRect(x: Self.start(of: column(ofSlot: slot), length: cell.width, spacing: spacing),
                      y: Self.start(of: row(ofSlot: slot), length: cell.height, spacing: spacing),
                      width: cell.width, height: cell.height)
    }

    /// The slot whose cell holds `point`, or nil in a gap, outside the grid,
    /// or on an unused cell of a partly used last row.
    public func slot(at point: CGPoint) -> Int? {
        let cell = cellSize
        guard let column = Self.cell(holding: point.x, length: cell.width, spacing: spacing, count: columns),
              let row = Self.cell(holding: point.y, length: cell.height, spacing: spacing, count: rows)
        else { return nil }
        let slot = row * columns + column
        return slot < slotsPerPage ? slot : nil
    }

    /// Where cell `number` starts along one axis. The one formula both the
    /// frame and the lookup use, so the two can never disagree.
    private static func start(of number: Int, length: CGFloat, spacing: CGFloat) -> CGFloat {
        CGFloat(number) * (length + spacing)
    }

    /// The cell along one axis whose half-open span [start, start + length)
    /// holds `value`. The division only guesses; the neighbours are checked
    /// with the exact span test, because `value / stride` can round across a
    /// cell edge.
    private static func cell(holding value: CGFloat, length: CGFloat, spacing: CGFloat, count: Int) -> Int? {
        guard value.isFinite, value >= 0 else { return nil }
        let guess = Int(min((value / (length + spacing)).rounded(.down), CGFloat(count)))
        for candidate in [guess, guess - 1, guess + 1] where (0..<count).contains(candidate) {
            let begin = start(of: candidate, length: length, spacing: spacing)
            if value >= begin && value < begin + length { return candidate }
        }
        return nil
    }
}
