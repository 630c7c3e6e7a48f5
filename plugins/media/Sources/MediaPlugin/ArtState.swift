/// Which art each button shows, as a machine: what ``MediaState`` wants on
/// a button in, what to read, fetch, cancel and show out. No I/O: the
/// runner performs the actions (``MediaRunner``), tests drive it directly.
///
/// - A URL is loaded once: results, failures included, are kept by URL for
///   the last ``cacheCapacity`` URLs, so a failure is logged once.
/// - The newest track wins: a button shows a fetch's image only while that
///   URL is still what it wants; a URL no button wants any more has its
///   fetch cancelled, so a slow server for an old track never overwrites a
///   newer track's art.
/// - At most ``maximumFetches`` fetches run at once; the rest wait, newest last.
package struct ArtState {
    /// Something to do.
    package enum Action: Hashable, Sendable {
        /// Read this `file:` URL now (``AlbumArt/load(_:)``) and give the result to ``loaded(_:_:)`` before the next action.
        case read(String)
        /// Start fetching this http(s) URL; its result goes to ``loaded(_:_:)`` when it comes.
        case fetch(String)
        /// Stop fetching this URL: no button wants it any more.
        case cancel(String)
        /// Show these bytes on the button (nil: no image).
        case image(MediaState.Slot, [UInt8]?)
        /// A warning for the host's log.
        case log(String)
    }

    /// URLs whose outcome is kept (at most 256 KiB each: 2 MiB at most).
    package static let cacheCapacity = 8
    /// Fetches running at once.
    package static let maximumFetches = 4

    private var cache: [(url: String, result: Result<[UInt8], MediaError>)] = []  // least recently used first
    private var fetching: [String] = []
    private var waiting: [String] = []
    private var wanted: [MediaState.Slot: String] = [:]

    /// No button shows art yet.
    package init() {}

    /// The URLs being fetched now, oldest first.
    package var inFlight: [String] { fetching }

    /// The button at `slot` is to show the art at `url` (nil: none). Sent
    /// when a button's art changes and after each layout (the host may have
    /// reset the face), so the image is always sent, nil while it is fetched.
    package mutating func show(_ url: String?, at slot: MediaState.Slot) -> [Action] {
        let previous = wanted[slot]
        wanted[slot] = url
        var actions: [Action] = []
        if let previous, previous != url { actions += release(previous) }
        guard let url else { return actions + [.image(slot, nil)] }
        if let index = cache.firstIndex(where: { $0.url == url }) {
            let hit = cache.remove(at: index)
            cache.append(hit)
            return actions + [.image(slot, try? hit.result.get())]
        }
        if fetching.contains(url) || waiting.contains(url) { return actions + [.image(slot, nil)] }
        switch Result(catching: { () throws(MediaError) in try ArtSource(url) }) {
        case .failure(let error):
            return actions + keep(url, .failure(error)) + [.image(slot, nil)]
        case .success(.file):
            return actions + [.read(url)]
        case .success(.remote):
            if fetching.count < Self.maximumFetches {
                fetching.append(url)
                actions.append(.fetch(url))
            } else {
                waiting.append(url)
            }
            return actions + [.image(slot, nil)]
        }
    }

    /// What reading or fetching `url` gave. A fetch that was cancelled meanwhile is dropped.
    package mutating func loaded(_ url: String, _ result: Result<[UInt8], MediaError>) -> [Action] {
        var actions: [Action] = []
        if let index = fetching.firstIndex(of: url) {
            fetching.remove(at: index)
            actions += startWaiting()
        } else if case .success(.remote) = Result(catching: { () throws(MediaError) in try ArtSource(url) }) {
            return []
        }
        actions += keep(url, result)
        let bytes = try? result.get()
        for slot in wanted.keys.sorted() where wanted[slot] == url {
            actions.append(.image(slot, bytes))
        }
        return actions
    }

    /// The layout now has only these buttons: art the others wanted is let go.
    package mutating func keep(only slots: Set<MediaState.Slot>) -> [Action] {
        var actions: [Action] = []
        for slot in wanted.keys.sorted() where !slots.contains(slot) {
            if let url = wanted.removeValue(forKey: slot) { actions += release(url) }
        }
        return actions
    }

    /// Lets `url` go when no button wants it: its fetch is cancelled or no longer waits.
    private mutating func release(_ url: String) -> [Action] {
        guard !wanted.values.contains(url) else { return [] }
        waiting.removeAll { $0 == url }
        guard let index = fetching.firstIndex(of: url) else { return [] }
        fetching.remove(at: index)
        return [.cancel(url)] + startWaiting()
    }

    private mutating func startWaiting() -> [Action] {
        guard fetching.count < Self.maximumFetches, !waiting.isEmpty else { return [] }
        let next = waiting.removeLast()  // the newest wanted first
        fetching.append(next)
        return [.fetch(next)]
    }

    /// Keeps an outcome (a failure is logged here, once per URL), evicting
    /// the least recently used URL that no button shows, else the oldest.
    private mutating func keep(_ url: String, _ result: Result<[UInt8], MediaError>) -> [Action] {
        cache.removeAll { $0.url == url }
        cache.append((url, result))
        if cache.count > Self.cacheCapacity {
            let shown = Set(wanted.values)
            cache.remove(at: cache.firstIndex { !shown.contains($0.url) } ?? 0)
        }
        if case .failure(let error) = result { return [.log("\(error); the button shows no image")] }
        return []
    }
}
