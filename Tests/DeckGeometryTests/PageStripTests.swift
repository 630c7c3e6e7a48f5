import DeckGeometry
import Foundation
import Testing

@Suite("page strip")
struct PageStripTests {
    let strip = PageStrip(pageLength: 390)

    @Test func offsetShowsEachPageWithTheGap() {
        #expect(strip.offset(showing: 0) == 0)
        #expect(strip.offset(showing: 1) == -422)
        #expect(strip.offset(showing: 3) == -1266)
        #expect(strip.start(ofPage: 2) == 844)
    }

    @Test func followsOneToOneBetweenPages() {
        #expect(strip.follow(-57.3, page: 1, pageCount: 3) == -57.3)
        #expect(strip.follow(57.3, page: 1, pageCount: 3) == 57.3)
        #expect(strip.follow(-57.3, page: 0, pageCount: 3) == -57.3)
        #expect(strip.follow(57.3, page: 2, pageCount: 3) == 57.3)
    }

    @Test func rubberBandsPastEitherEnd() {
        #expect(abs(strip.follow(60.3, page: 0, pageCount: 3) - 20.1) < 1e-9)
        #expect(abs(strip.follow(-60.3, page: 2, pageCount: 3) + 20.1) < 1e-9)
        // A single page is both ends.
        #expect(abs(strip.follow(-30.3, page: 0, pageCount: 1) + 10.1) < 1e-9)
        #expect(abs(strip.follow(30.3, page: 0, pageCount: 1) - 10.1) < 1e-9)
    }

    @Test func maskReachesSixteenPointsPastThePage() {
        let mask = PageStrip.mask(pageSize: CGSize(width: 390, height: 560))
        #expect(mask == CGRect(x: -16, y: -16, width: 422, height: 592))
        // Half the page gap: the neighbouring page, 32 points away, stays hidden.
        #expect(mask.maxX < strip.start(ofPage: 1))
    }
}
