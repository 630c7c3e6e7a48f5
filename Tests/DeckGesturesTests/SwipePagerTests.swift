import DeckGestures
import Foundation
import Testing

@Suite("swipe pager")
struct SwipePagerTests {
    func drag(translation: CGFloat, velocity: CGFloat = 0, vertical: Bool = false) -> DragValue {
        let end = vertical ? CGPoint(x: 0, y: translation) : CGPoint(x: translation, y: 0)
        let speed = vertical ? CGSize(width: 0, height: velocity) : CGSize(width: velocity, height: 0)
        return DragValue(time: 1, location: end, startLocation: .zero, velocity: speed)
    }

    @Test func oneOffsetFollowsThenSettlesOnTheNextPage() {
        var pager = SwipePager(axis: .horizontal, pageLength: 390, gap: 32, pageCount: 3, page: 1, rule: .deck)
        #expect(pager.offset == -422)
        pager.follow(drag(translation: -50.5))
        #expect(pager.offset == -472.5)
        #expect(pager.isFollowing)
        // -50.5 moved, -600 points/s: predicted -200.5, beyond a third of 390.
        #expect(pager.release(drag(translation: -50.5, velocity: -600)) == .flipped(to: 2))
        #expect(pager.offset == -844)
        #expect(!pager.isFollowing)
    }

    @Test func deckRuleJudgesThePredictedEnd() {
        var pager = SwipePager(axis: .horizontal, pageLength: 390, gap: 32, pageCount: 3, page: 1, rule: .deck)
        #expect(pager.release(drag(translation: -120, velocity: -30)) == .settled, "-127.5 predicted: short of 130")
        #expect(pager.release(drag(translation: -120, velocity: -50)) == .flipped(to: 2), "-132.5 predicted")
        #expect(pager.release(drag(translation: 131)) == .flipped(to: 1))
    }

    @Test func feedRuleJudgesTheActualTranslation() {
        var pager = SwipePager(axis: .vertical, pageLength: 700, gap: 0, pageCount: 3, page: 1, rule: .feed)
        // 22 % of 700 is 154.
        #expect(pager.release(drag(translation: -150.5, velocity: -5000, vertical: true)) == .settled,
                "a fast flick does not count, only how far the card went")
        #expect(pager.release(drag(translation: -154.21, vertical: true)) == .flipped(to: 2))
        #expect(pager.release(drag(translation: 154.21, vertical: true)) == .flipped(to: 1))
        #expect(pager.release(drag(translation: 154.21, vertical: true)) == .flipped(to: 0))
        #expect(pager.offset == 0)
    }

    @Test func rubberBandAndNoFlipPastTheEnds() {
        var pager = SwipePager(axis: .vertical, pageLength: 700, gap: 0, pageCount: 2, page: 0, rule: .feed)
        pager.follow(drag(translation: 300.3, vertical: true))
        #expect(abs(pager.offset - 100.1) < 1e-9)
        #expect(pager.release(drag(translation: 300.3, vertical: true)) == .settled)
        #expect(pager.offset == 0)
        pager.show(page: 1)
        pager.follow(drag(translation: -90.3, vertical: true))
        #expect(abs(pager.offset - (-700 - 30.1)) < 1e-9)
        #expect(pager.release(drag(translation: -400, vertical: true)) == .settled)
        #expect(pager.offset == -700)
    }

    @Test func pagerSessionDrivesAFeedFromTouches() {
        var feed = PagerSession(pager: SwipePager(axis: .vertical, pageLength: 700, gap: 0, pageCount: 3, rule: .feed))
        #expect(feed.handle(.down(CGPoint(x: 200, y: 500), at: 0)).isEmpty)
        #expect(feed.handle(.move(CGPoint(x: 200, y: 495), at: 0.05)).isEmpty, "not yet a drag")
        #expect(feed.handle(.move(CGPoint(x: 200, y: 300), at: 0.1)).map(\.output) == [.offset(-200)])
        #expect(feed.handle(.up(CGPoint(x: 200, y: 300), at: 0.2)).map(\.output) == [.page(1), .settle(-700)])
        #expect(feed.pager.page == 1)
        // A tap is no drag: nothing to settle.
        #expect(feed.handle(.down(CGPoint(x: 200, y: 300), at: 1)).isEmpty)
        #expect(feed.handle(.up(CGPoint(x: 200, y: 300), at: 1.1)).isEmpty)
    }
}
