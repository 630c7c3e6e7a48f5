import DeckGeometry
import Foundation
import Testing

/// Times sit just past the thresholds (1.21 rather than 1.2): 0.7 + 0.5 is
/// not exactly 1.2 in binary floating point, so a test on the boundary would
/// test rounding, not the pager.
@Suite("edge dwell pager")
struct EdgeDwellPagerTests {
    let width: CGFloat = 390

    @Test func pagerWaitsHalfSecondThenRepeats() {
        var pager = EdgeDwellPager()
        var step = pager.update(x: 370, width: width, now: 0.11, page: 0, pageCount: 4)
        #expect(step.newPage == nil)
        #expect(step.deadline.map { abs($0 - 0.61) < 1e-9 } == true)
        step = pager.update(x: 372, width: width, now: 0.59, page: 0, pageCount: 4)
        #expect(step.newPage == nil)
        step = pager.update(x: 372, width: width, now: 0.62, page: 0, pageCount: 4)
        #expect(step.newPage == 1)
        #expect(step.deadline.map { abs($0 - 1.31) < 1e-9 } == true)
        step = pager.update(x: 372, width: width, now: 1.29, page: 1, pageCount: 4)
        #expect(step.newPage == nil)
        step = pager.update(x: 372, width: width, now: 1.31, page: 1, pageCount: 4)
        #expect(step.newPage == 2)
        #expect(step.deadline.map { abs($0 - 2.01) < 1e-9 } == true)
    }

    @Test func aFlipIsDueAtItsInstantThoughTheSumRoundsPastIt() {
        // 1.83 + 0.7 is 2.5300000000000002: the second flip is still due at 2.53.
        var pager = EdgeDwellPager()
        _ = pager.update(x: 372, width: width, now: 1.33, page: 0, pageCount: 4)
        #expect(pager.update(x: 372, width: width, now: 1.83, page: 0, pageCount: 4).newPage == 1)
        #expect(pager.update(x: 372, width: width, now: 2.53, page: 1, pageCount: 4).newPage == 2)
        #expect(VirtualTime.isDue(0.12 + 0.45, at: 0.57))
        #expect(!VirtualTime.isDue(0.571, at: 0.57))
    }

    @Test func nextFlipCountsFromTheDeadlineNotFromALateCall() {
        var pager = EdgeDwellPager()
        _ = pager.update(x: 5, width: width, now: 1.01, page: 3, pageCount: 4)
        let step = pager.update(x: 5, width: width, now: 1.91, page: 3, pageCount: 4)
        #expect(step.newPage == 2)
        #expect(step.deadline.map { abs($0 - 2.21) < 1e-9 } == true)
    }

    @Test func pagerLeftEdgeGoesBack() {
        var pager = EdgeDwellPager()
        _ = pager.update(x: 39.9, width: width, now: 0, page: 2, pageCount: 3)
        #expect(pager.update(x: 20, width: width, now: 0.51, page: 2, pageCount: 3).newPage == 1)
    }

    @Test func pagerStopsAtEnds() {
        var pager = EdgeDwellPager()
        var step = pager.update(x: 10, width: width, now: 0, page: 0, pageCount: 3)
        #expect(step.deadline == nil)
        step = pager.update(x: 10, width: width, now: 5.01, page: 0, pageCount: 3)
        #expect(step.newPage == nil)
        var right = EdgeDwellPager()
        _ = right.update(x: 380, width: width, now: 0, page: 1, pageCount: 3)
        step = right.update(x: 380, width: width, now: 0.51, page: 1, pageCount: 3)
        #expect(step.newPage == 2)
        #expect(step.deadline == nil, "no flip past the last page, so nothing to wait for")
    }

    @Test func leavingEdgeResetsTimer() {
        var pager = EdgeDwellPager()
        _ = pager.update(x: 380, width: width, now: 0, page: 0, pageCount: 3)
        #expect(pager.update(x: 200, width: width, now: 0.31, page: 0, pageCount: 3) == .init(newPage: nil, deadline: nil))
        let back = pager.update(x: 380, width: width, now: 0.41, page: 0, pageCount: 3)
        #expect(back.deadline.map { abs($0 - 0.91) < 1e-9 } == true)
        #expect(pager.update(x: 380, width: width, now: 0.61, page: 0, pageCount: 3).newPage == nil)
        #expect(pager.update(x: 380, width: width, now: 0.91, page: 0, pageCount: 3).newPage == 1)
    }

    @Test func switchingSidesRestartsTheWait() {
        var pager = EdgeDwellPager()
        _ = pager.update(x: 380, width: width, now: 0, page: 1, pageCount: 3)
        _ = pager.update(x: 10, width: width, now: 0.31, page: 1, pageCount: 3)
        #expect(pager.update(x: 10, width: width, now: 0.51, page: 1, pageCount: 3).newPage == nil)
        #expect(pager.update(x: 10, width: width, now: 0.82, page: 1, pageCount: 3).newPage == 0)
    }

    @Test func zonesAreFortyPointsAndBeyondTheEdge() {
        #expect(EdgeDwellPager.edge(x: 39.99, width: width) == .left)
        #expect(EdgeDwellPager.edge(x: 40, width: width) == nil)
        #expect(EdgeDwellPager.edge(x: 350, width: width) == nil)
        #expect(EdgeDwellPager.edge(x: 350.01, width: width) == .right)
        #expect(EdgeDwellPager.edge(x: -12, width: width) == .left)
        #expect(EdgeDwellPager.edge(x: 402, width: width) == .right)
    }
}
