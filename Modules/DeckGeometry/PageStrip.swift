import Foundation

/// Pages laid side by side (or one above the other) as one long strip that
/// slides under a window the size of one page.
///
/// All pages stay laid out, so a button dragged across a page change keeps
/// its view and its touch; the strip's single offset decides which page shows.
public struct PageStrip: Hashable, Sendable {
    /// The deck's distance between two pages, in points.
    public static let deckGap: CGFloat = 32
    /// How far the visible window reaches past the page on every side, so a
    /// held (×1.06) or lifted (×1.1) button at the edge is not clipped. Half
    /// the page gap, so the neighbouring page still does not show.
    public static let overscan: CGFloat = 16
    /// What a drag past the first or the last page is divided by.
    public static let rubberBandDivisor: CGFloat = 3

    /// The length of one page along the strip (its width for a horizontal strip).
    public var pageLength: CGFloat
    /// Points between two pages.
    public var gap: CGFloat

    /// A strip of pages `pageLength` long, `gap` apart.
    public init(pageLength: CGFloat, gap: CGFloat = PageStrip.deckGap) {
        self.pageLength = pageLength
        self.gap = gap
    }

    /// The strip's offset that shows `page`: the strip slides back by one
    /// page and one gap per page.
    public func offset(showing page: Int) -> CGFloat {
        0 - CGFloat(page) * (pageLength + gap) // `0 -` so page 0 is 0, not -0
    }

    /// Where `page` starts along the strip.
    public func start(ofPage page: Int) -> CGFloat {
        CGFloat(page) * (pageLength + gap)
    }

    /// A finger's translation along the strip as the strip should follow it:
    /// one to one, except past the first or the last page, where it follows
    /// a third of the way (the rubber band).
    public func follow(_ translation: CGFloat, page: Int, pageCount: Int) -> CGFloat {
        let pullsBeforeFirst = page <= 0 && translation > 0
        let pullsAfterLast = page >= pageCount - 1 && translation < 0
        return pullsBeforeFirst || pullsAfterLast ? translation / Self.rubberBandDivisor : translation
    }

    /// The visible window for a page of `size`: the page grown by
    /// ``overscan`` on every side.
    public static func mask(pageSize size: CGSize) -> CGRect {
        CGRect(x: -overscan, y: -overscan, width: size.width + 2 * overscan, height: size.height + 2 * overscan)
    }
}
