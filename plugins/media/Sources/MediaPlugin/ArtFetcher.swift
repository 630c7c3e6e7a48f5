#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import DeckDBus

/// Fetches http(s) album art on a thread of its own, so a slow or hostile
/// server never holds up the bus thread: ``fetch(_:)`` and ``cancel(_:)``
/// return at once, and each fetch that is not cancelled ends in exactly one
/// call of the completion, on the fetch thread, with the image or why not.
///
/// The bounds (``Limits``) are libcurl's: http and https only (redirects
/// too), certificates checked against the system's CA store, a deadline
/// for the whole fetch, a redirect limit, and reading stops at the face's
/// size bound. The bytes must sniff as PNG, JPEG or SVG, as the host's do.
package final class ArtFetcher: Sendable {
    /// How far a fetch may go.
    package struct Limits: Sendable, Hashable {
        /// The largest body read; past it the fetch stops.
        package var maximumBytes = AlbumArt.maximumBytes
        /// The whole fetch (name lookup, connect, TLS, redirects, body) in milliseconds.
        package var deadlineMilliseconds = 5000
        /// Redirects followed.
        package var redirects = 5

        /// The plugin's limits; tests shorten the deadline.
        package init(maximumBytes: Int = AlbumArt.maximumBytes, deadlineMilliseconds: Int = 5000, redirects: Int = 5) {
            self.maximumBytes = maximumBytes
            self.deadlineMilliseconds = deadlineMilliseconds
            self.redirects = redirects
        }
    }

    /// What a fetch gave, for the URL it was asked for.
    package typealias Completion = @Sendable (_ url: String, _ result: Result<[UInt8], MediaError>) -> Void

    private let mailbox: BusMailbox<ArtAsk>
    private let thread: BusThread
    private let joined = Mutex(false)

    /// Starts the fetch thread.
    package init(limits: Limits = Limits(), completion: @escaping Completion) throws(MediaError) {
        do throws(DBusError) {
            let mailbox = try BusMailbox<ArtAsk>(for: "art fetch thread")
            self.mailbox = mailbox
            thread = try BusThread("art fetch thread") {
                guard let loop = ArtFetchLoop(mailbox: mailbox, limits: limits, completion: completion) else {
                    // No multi handle: every fetch asked for fails with a sentence, until stop.
                    mailbox.failAll(MediaError("http(s) art cannot be fetched: libcurl could not start (curl_multi_init failed)"),
                                    completion)
                    return
                }
                loop.run()
            }
        } catch {
            throw MediaError(error)
        }
    }

    deinit { stop() }

    /// Starts fetching `url` (an http or https URL); a URL already being fetched is not fetched twice.
    package func fetch(_ url: String) { mailbox.post(.fetch(url)) }

    /// Stops fetching `url`; its completion is not called (unless it already was).
    package func cancel(_ url: String) { mailbox.post(.cancel(url)) }

    /// Ends every fetch and the thread, and waits for it; the completion is not called after this returns.
    package func stop() {
        mailbox.stop()
        let first = joined.withLock { joined in
            defer { joined = true }
            return !joined
        }
        if first { thread.join() }
    }
}

/// One call of ``ArtFetcher/fetch(_:)`` or ``ArtFetcher/cancel(_:)``, kept in order (a cancel undoes the fetch before it).
enum ArtAsk: Sendable {
    case fetch(String)
    case cancel(String)
}

extension BusMailbox where Item == ArtAsk {
    /// The fetch thread's loop when libcurl cannot start: each fetch fails with `error`, until stop.
    func failAll(_ error: MediaError, _ completion: ArtFetcher.Completion) {
        while true {
            var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, -1)
            let (asked, stopped) = take()
            if stopped { return }
            for case .fetch(let url) in asked { completion(url, .failure(error)) }
        }
    }
}
