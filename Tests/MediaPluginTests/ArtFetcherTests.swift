import DeckModel
import DeckTestSupport
import Foundation
@testable import MediaPlugin
import Synchronization
import Testing

/// The http(s) fetcher against a real server (Tests/e2e/media/art_server.py):
/// images served, and each bound giving its own sentence — the 50 MB bodies,
/// the slow one, the redirect loop, the page that is no image, the
/// certificate that is not trusted.
@Suite struct ArtFetcherTests {
    /// Results by URL, and a signal per arrival.
    final class Results: Sendable {
        private let results = Mutex<[String: Result<[UInt8], MediaError>]>([:])
        private let arrived = DispatchSemaphore(value: 0)

        func add(_ url: String, _ result: Result<[UInt8], MediaError>) {
            results.withLock { $0[url] = result }
            arrived.signal()
        }

        /// Waits for `count` arrivals (a deadline far past every bound, so a hang fails rather than blocks).
        func wait(for count: Int = 1) -> [String: Result<[UInt8], MediaError>] {
            for _ in 0..<count { _ = arrived.wait(timeout: .now() + 30) }
            return results.withLock { $0 }
        }
    }

    static func fetch(_ url: String, limits: ArtFetcher.Limits = ArtFetcher.Limits()) throws -> Result<[UInt8], MediaError> {
        let results = Results()
        let fetcher = try ArtFetcher(limits: limits, completion: results.add)
        defer { fetcher.stop() }
        fetcher.fetch(url)
        return try #require(results.wait()[url], "no result for \(url)")
    }

    @Test(arguments: ["/art/cover.png", "/octet.png", "/art/cover.svg", "/hop/3"])
    func imagesAreFetchedWhateverTheTypeTheServerSays(path: String) throws {
        let server = try ArtServer()
        defer { server.stop() }
        let bytes = try Self.fetch(server.url(path)).get()
        #expect(ImageSignature.sniff(bytes) != nil)
        if path == "/art/cover.png" { #expect(String(decoding: bytes, as: UTF8.self).contains("Title\0cover")) }
    }

    @Test(arguments: [
        ("/huge", "art at URL is over the 256 KiB a button image may be (its Content-Length says so); not read"),
        ("/huge-chunked", "art at URL is over the 256 KiB a button image may be; stopped reading at the bound"),
        ("/slow", "fetching art at URL took longer than 0.5 s; stopped"),
        ("/loop", "art at URL redirects more than 5 times; not followed further"),
        ("/hop/6", "art at URL redirects more than 5 times; not followed further"),
        ("/html", "art at URL is not a PNG, JPEG or SVG image (the server said text/html)"),
        ("/missing", "art at URL was not served: the server answered HTTP 404"),
    ])
    func eachBoundIsASentence(path: String, message: String) throws {
        let server = try ArtServer()
        defer { server.stop() }
        let url = server.url(path)
        let result = try Self.fetch(url, limits: ArtFetcher.Limits(deadlineMilliseconds: 500))
        #expect(throws: MediaError(message.replacingOccurrences(of: "URL", with: url))) { try result.get() }
    }

    @Test func aRedirectToAnotherSchemeIsNotFollowed() throws {
        let server = try ArtServer()
        defer { server.stop() }
        let url = server.url("/ftp")
        let error = try #require(throws: MediaError.self) { try Self.fetch(url).get() }
        #expect(error.description.hasPrefix("art at \(url) redirects to a URL that is not http or https ("))
    }

    @Test func aSelfSignedCertificateIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "media-tls")
        defer { folder.remove() }
        let server = try ArtServer(tls: try ArtServer.selfSigned(in: folder))
        defer { server.stop() }
        let url = server.url("/art/cover.png")
        let error = try #require(throws: MediaError.self) { try Self.fetch(url).get() }
        #expect(error.description.hasPrefix("art at \(url) was refused: the server's certificate is not trusted by the system's CA store (SSL certificate problem: self-signed certificate"),
                "\(error)")
    }

    @Test func nothingListeningIsAClearFailure() throws {
        let server = try ArtServer()
        let url = server.url("/art/cover.png")
        server.stop()  // the port is closed now
        let error = try #require(throws: MediaError.self) { try Self.fetch(url).get() }
        #expect(error.description.hasPrefix("fetching art at \(url) failed: "), "\(error)")
    }

    @Test func aSlowFetchHoldsUpNeitherTheCallerNorOtherFetchesAndStopEndsIt() throws {
        let server = try ArtServer()
        defer { server.stop() }
        let results = Results()
        let fetcher = try ArtFetcher(completion: results.add)
        let slow = server.url("/slow"), fast = server.url("/art/fast.png"), cancelled = server.url("/held/never.png")
        fetcher.fetch(slow)
        fetcher.fetch(cancelled)
        fetcher.cancel(cancelled)
        fetcher.fetch(fast)
        let arrived = results.wait()
        #expect(arrived.keys.sorted() == [fast])  // the slow one is still being read, the cancelled one never ends
        let started = ContinuousClock.now
        fetcher.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(results.wait(for: 0).keys.sorted() == [fast])
    }
}
