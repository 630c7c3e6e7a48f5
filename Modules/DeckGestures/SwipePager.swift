import DeckGeometry
import Foundation

/// One page-swipe interaction for a strip of pages: the deck's horizontal
/// page swipe and a reels-style vertical card feed are both this.
///
/// It keeps a single offset for the strip. While the finger drags, the offset
/// follows it one to one (a third of the way past either end); at the release
/// the same value is set to the resting offset of the page it settles on, and
/// the view animates that one value. Never a drag offset plus a separate
/// settled offset added together: two independent animations summed do not
/// land smoothly.
public struct SwipePager: Hashable, Sendable {
    /// The direction pages are laid out in.
    public enum Axis: String, Hashable, Sendable {
        case horizontal, vertical
    }

    /// When a release flips to the neighbouring page.
    public enum FlipRule: Hashable, Sendable {
        /// When the predicted end translation is beyond this fraction of a
        /// page (the deck: 1/3, so a short flick is enough).
        case predictedEnd(fraction: CGFloat)
        /// When the finger's actual translation reaches this fraction of a
        /// page (a card feed: 0.22).
        case translation(fraction: CGFloat)

        /// The deck's page swipe.
        public static let deck = FlipRule.predictedEnd(fraction: 1.0 / 3.0)
        /// A reels-style card feed.
        public static let feed = FlipRule.translation(fraction: 0.22)
    }

    /// What a release did.
    public enum Outcome: Hashable, Sendable {
        /// Flipped to this page (next or previous).
        case flipped(to: Int)
        /// Went back to the page it was on.
        case settled
    }

    /// The direction of the strip.
    public let axis: Axis
    /// When a release flips.
    public let rule: FlipRule
    /// The strip's geometry (page length and gap).
    public private(set) var strip: PageStrip
    /// Pages in the strip.
    public private(set) var pageCount: Int
    /// The page shown (or settling into view).
    public private(set) var page: Int
    /// The strip's offset along the axis: the one value the view applies.
    public private(set) var offset: CGFloat
    /// True while the offset follows a finger (draw without animation);
    /// false once released or moved by a page change (animate to it).
    public private(set) var isFollowing = false

    /// A pager showing `page` of `pageCount` (clamped into range).
    public init(axis: Axis, pageLength: CGFloat, gap: CGFloat, pageCount: Int, page: Int = 0, rule: FlipRule) {
        self.axis = axis
        self.rule = rule
        self.strip = PageStrip(pageLength: pageLength, gap: gap)
        self.pageCount = max(1, pageCount)
        self.page = min(max(page, 0), max(1, pageCount) - 1)
        self.offset = strip.offset(showing: self.page)
    }

    /// The component of `size` along the axis.
    public func along(_ size: CGSize) -> CGFloat {
        axis == .horizontal ? size.width : size.height
    }

    /// Follows a drag sample: the offset becomes the page's resting offset
    /// plus the translation along the axis, rubber-banded past either end.
    public mutating func follow(_ drag: DragValue) {
        isFollowing = true
        offset = strip.offset(showing: page) + strip.follow(along(drag.translation), page: page, pageCount: pageCount)
    }

    /// Releases with the drag's last value: flips by the rule or settles back.
    public mutating func release(_ drag: DragValue) -> Outcome {
        let measure = switch rule {
        case .predictedEnd: along(drag.predictedEndTranslation)
        case .translation: along(drag.translation)
        }
        let threshold = switch rule {
        case .predictedEnd(let fraction), .translation(let fraction): fraction * strip.pageLength
        }
        // The deck flips when the predicted end is *beyond* a third; the
        // feed when the finger has moved *at least* its fraction (its
        // `translation <= -height * 0.22`).
        let flips: (CGFloat) -> Bool = switch rule {
        case .predictedEnd: { LengthThreshold.exceeds($0, threshold) }
        case .translation: { LengthThreshold.reaches($0, threshold) }
        }
        var target = page
        if measure < 0, flips(-measure) { target = page + 1 }
        if measure > 0, flips(measure) { target = page - 1 }
        guard target != page, (0..<pageCount).contains(target) else {
            settle()
            return .settled
        }
        show(page: target)
        return .flipped(to: target)
    }

    /// The drag was cancelled: settle back on the current page.
    public mutating func settle() {
        show(page: page)
    }

    /// Shows `page` (clamped), animating there from wherever the offset is.
    public mutating func show(page: Int) {
        self.page = min(max(page, 0), pageCount - 1)
        isFollowing = false
        offset = strip.offset(showing: self.page)
    }

    /// Changes the number of pages (a new layout), keeping the page in range.
    public mutating func setPageCount(_ count: Int) {
        pageCount = max(1, count)
        if page >= pageCount || !isFollowing { show(page: page) }
    }
}
