/// How deckd serves browsers (WEB.md §1–§4), from `--web-origin`, `--web-root`,
/// `--max-message` and TLS.
public struct WebConfiguration: Sendable {
    /// The web app's folder; nil when none was found (`/` then serves a page saying so).
    public var root: String?
    /// Origins besides the page's own allowed to open the WebSocket (`--web-origin`).
    public var extraOrigins: [String]
    /// Whether the listener speaks TLS (the page's own origin is then `https://`).
    public var secure: Bool
    /// The largest message a socket may send (`--max-message`); over it: `tooLarge`, then 1009.
    public var maxMessageBytes: Int
    /// The largest *first* message (the `hello`, sent before the socket is
    /// anyone's); nil: `maxMessageBytes`. Over it: `tooLarge`, then 1009.
    public var maxFirstMessageBytes: Int?
    /// Icon themes (WEB.md §5).
    public var icons: IconSearch
    /// The images faces show, served at `/faces/HASH.EXT` (docs/faces.md §4).
    public var faceImages: FaceImageStore

    /// Makes one.
    public init(root: String?, extraOrigins: [String] = [], secure: Bool = false, maxMessageBytes: Int = 1 << 20,
                maxFirstMessageBytes: Int? = nil,
                icons: IconSearch = IconSearch(baseFolders: [], theme: nil), faceImages: FaceImageStore = FaceImageStore()) {
        self.faceImages = faceImages
        self.maxFirstMessageBytes = maxFirstMessageBytes
        self.root = root
        self.extraOrigins = extraOrigins
        self.secure = secure
        self.maxMessageBytes = maxMessageBytes
        self.icons = icons
    }
}

import Glibc

extension WebConfiguration {
    /// Where `make install` puts the web app: `PREFIX/share/deckd/web` beside
    /// `PREFIX/bin/deckd` (found from /proc/self/exe, so any PREFIX works);
    /// nil when that folder has no `index.html`.
    public static func installedRoot(executable: String = "/proc/self/exe") -> String? {
        guard let real = StaticFiles.resolve(executable) else { return nil }
        var parts = real.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        parts.removeLast(2)  // bin/deckd
        let folder = parts.joined(separator: "/") + "/share/deckd/web"
        return StaticFiles(root: folder).hasPage ? folder : nil
    }
}
