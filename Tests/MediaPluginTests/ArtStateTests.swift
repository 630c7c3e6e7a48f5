@testable import MediaPlugin
import Testing

/// The art machine driven directly: each URL loaded once, the newest track
/// winning over a slow fetch for an old one, fetches cancelled and bounded.
@Suite struct ArtStateTests {
    static let a = MediaState.Slot(page: 0, index: 0)
    static let b = MediaState.Slot(page: 0, index: 1)
    static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]
    static let other: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 2]

    @Test func anHTTPURLIsFetchedOnceForEveryButtonAndKept() {
        var art = ArtState()
        let url = "http://covers.example/one.png"
        #expect(art.show(url, at: Self.a) == [.fetch(url), .image(Self.a, nil)])
        #expect(art.show(url, at: Self.b) == [.image(Self.b, nil)])  // already on its way
        #expect(art.loaded(url, .success(Self.png)) == [.image(Self.a, Self.png), .image(Self.b, Self.png)])
        // Shown again (a new layout, the same track): from the cache, no fetch.
        #expect(art.show(url, at: Self.a) == [.image(Self.a, Self.png)])
        #expect(art.inFlight.isEmpty)
    }

    @Test func theNewestTrackWinsOverASlowFetchForTheOldOne() {
        var art = ArtState()
        let old = "https://slow.example/old.png", new = "https://fast.example/new.png"
        _ = art.show(old, at: Self.a)
        // The track changes before the old art came: its fetch is cancelled, the new one starts.
        #expect(art.show(new, at: Self.a) == [.cancel(old), .fetch(new), .image(Self.a, nil)])
        #expect(art.loaded(new, .success(Self.other)) == [.image(Self.a, Self.other)])
        // The old fetch ends anyway (it raced its cancel): nothing is shown, nothing kept.
        #expect(art.loaded(old, .success(Self.png)).isEmpty)
        #expect(art.show(old, at: Self.b) == [.fetch(old), .image(Self.b, nil)])
    }

    @Test func aURLAnotherButtonStillWantsIsNotCancelled() {
        var art = ArtState()
        let url = "http://x.example/a.png"
        _ = art.show(url, at: Self.a)
        _ = art.show(url, at: Self.b)
        #expect(art.show(nil, at: Self.a) == [.image(Self.a, nil)])
        #expect(art.inFlight == [url])
        #expect(art.keep(only: [Self.a]) == [.cancel(url)])  // b left the layout
    }

    @Test func aFailureIsLoggedOnceAndShowsNoImage() {
        var art = ArtState()
        let url = "http://x.example/missing.png"
        _ = art.show(url, at: Self.a)
        let failure = MediaError("art at \(url) was not served: the server answered HTTP 404")
        #expect(art.loaded(url, .failure(failure))
                == [.log("art at \(url) was not served: the server answered HTTP 404; the button shows no image"),
                    .image(Self.a, nil)])
        #expect(art.show(url, at: Self.b) == [.image(Self.b, nil)])  // kept: not fetched or logged again
    }

    @Test func fileArtIsReadAtOnceWithoutABlankFirst() {
        var art = ArtState()
        #expect(art.show("file:///covers/a.png", at: Self.a) == [.read("file:///covers/a.png")])
        #expect(art.loaded("file:///covers/a.png", .success(Self.png)) == [.image(Self.a, Self.png)])
    }

    @Test(arguments: ["data:image/png;base64,AAAA", "ftp://x.example/a.png", "http:///a.png", "https://x.example/a b.png"])
    func otherURLsAreRefusedWithoutAFetch(url: String) {
        var art = ArtState()
        let actions = art.show(url, at: Self.a)
        #expect(actions.count == 2 && actions.last == .image(Self.a, nil))
        guard case .log(let text) = actions.first else { Issue.record("no log line: \(actions)"); return }
        #expect(text.hasPrefix("art URL \(url) ") && text.hasSuffix("; the button shows no image"))
        #expect(art.inFlight.isEmpty)
    }

    @Test func atMostFourFetchesRunAndTheNewestWaitingGoesFirst() {
        var art = ArtState()
        let urls = (0..<6).map { "http://x.example/\($0).png" }
        for (index, url) in urls.enumerated() { _ = art.show(url, at: MediaState.Slot(page: 0, index: index)) }
        #expect(art.inFlight == Array(urls.prefix(ArtState.maximumFetches)))
        #expect(art.loaded(urls[0], .success(Self.png)) == [.fetch(urls[5]), .image(Self.a, Self.png)])
    }

    @Test func theCacheIsBoundedAndKeepsWhatButtonsShow() {
        var art = ArtState()
        let shown = "http://x.example/shown.png"
        _ = art.show(shown, at: Self.a)
        _ = art.loaded(shown, .success(Self.png))
        for index in 0..<(ArtState.cacheCapacity + 2) {
            let url = "http://x.example/\(index).png"
            _ = art.show(url, at: Self.b)
            _ = art.loaded(url, .success(Self.other))
        }
        #expect(art.show(shown, at: Self.a) == [.image(Self.a, Self.png)])  // still kept: a button shows it
        #expect(art.show("http://x.example/0.png", at: Self.b).contains(.fetch("http://x.example/0.png")))
    }
}
