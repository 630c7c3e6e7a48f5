/// Where an `mpris:artUrl` points, decided before anything is read: a file
/// of this machine, or an http(s) URL for ``ArtFetcher``. Every other
/// scheme (data:, ftp:, a relative path) is refused with a sentence saying so.
package enum ArtSource: Hashable, Sendable {
    /// A `file:` URL's path, %-escapes decoded.
    case file(path: String)
    /// An `http:` or `https:` URL, as the player sent it (libcurl parses the rest).
    case remote(String)

    /// Classifies `url`; throws when it is no URL the plugin reads art from.
    package init(_ url: String) throws(MediaError) {
        let lower = url.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let rest = lower.drop(while: { $0 != ":" }).dropFirst(3)
            guard let first = rest.first, first != "/", first != "?", first != "#" else {
                throw MediaError("art URL \(Self.shown(url)) names no host")
            }
            guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f }) else {
                throw MediaError("art URL \(Self.shown(url)) has a space or a control character in it")
            }
            self = .remote(url)
            return
        }
        guard lower.hasPrefix("file://") else {
            throw MediaError("art URL \(Self.shown(url)) is not a file:, http: or https: URL")
        }
        var rest = Substring(url.dropFirst("file://".count))
        if !rest.hasPrefix("/") {
            // file://host/path: only this machine's files.
            guard let slash = rest.firstIndex(of: "/"), rest[..<slash] == "localhost" else {
                throw MediaError("art URL \(Self.shown(url)) names another host")
            }
            rest = rest[slash...]
        }
        guard let path = AlbumArt.percentDecoded(rest) else {
            throw MediaError("art URL \(Self.shown(url)) has a bad %-escape")
        }
        self = .file(path: path)
    }

    /// A URL as a log line quotes it: its first 120 characters.
    static func shown(_ url: String) -> Substring { url.prefix(120) }
}
