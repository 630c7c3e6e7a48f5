import Glibc

/// One file ready to serve: its bytes, the gzip form made once, a strong ETag.
struct StaticFile {
    var bytes: [UInt8]
    /// Compressed once when first read; nil when gzip would not make it smaller.
    var gzipped: [UInt8]?
    /// A strong validator of the content (`"…"`); the gzip form's ends in `.gz"`.
    var etag: String
    var contentType: String
    /// The web app's page (HTML): it gets the Content-Security-Policy.
    var isPage: Bool { contentType.hasPrefix("text/html") }

    init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
        let digest = WebSocketHandshake.sha1(bytes).prefix(12).map { byte in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
        }.joined()
        etag = "\"\(digest)\""
        if bytes.count >= 256, Self.compressible(contentType), let packed = Gzip.compress(bytes), packed.count < bytes.count {
            gzipped = packed
        }
    }

    var gzipETag: String { String(etag.dropLast()) + ".gz\"" }

    private static func compressible(_ type: String) -> Bool {
        type.hasPrefix("text/") || type.contains("javascript") || type.contains("json") || type.contains("svg")
    }
}

/// The web app's folder (`Apps/web` in the repository, PREFIX/share/deckd/web
/// installed), served read-only. A file is read and compressed the first time
/// it is asked for and again only when its size or modification time changes,
/// so a web app being edited is served fresh without a restart.
final class StaticFiles {
    /// Files larger than this are not served (an app's files are small; a mistake must not fill memory).
    static let maxFileBytes = 16 << 20

    /// The folder, resolved (no symlinks), or nil when there is none.
    let root: String?
    private var cache: [String: (stamp: Stamp, file: StaticFile)] = [:]

    private struct Stamp: Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int
    }

    init(root: String?) {
        self.root = root.flatMap(Self.resolve)
    }

    /// The file for a request path (`/` is `index.html`), or nil when there is
    /// none: a path outside the folder (`..`, a symlink leading out), a hidden
    /// name, a folder, a file too large.
    func file(for path: String) -> StaticFile? {
        guard let root, let relative = Self.relativePath(path) else { return nil }
        guard let real = Self.resolve(root + "/" + relative), real.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= Self.maxFileBytes else {
            return nil
        }
        let stamp = Stamp(size: Int(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
        if let cached = cache[real], cached.stamp == stamp { return cached.file }
        guard let bytes = Self.read(real, size: stamp.size) else { return nil }
        let file = StaticFile(bytes: bytes, contentType: ContentTypes.type(forPath: real))
        cache[real] = (stamp, file)
        return file
    }

    /// Whether the folder holds the web app's page.
    var hasPage: Bool { file(for: "/") != nil }

    /// `a/b.js` for `/a/b.js` (percent-decoded); nil for anything that is not a
    /// plain path of visible names.
    static func relativePath(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        if path == "/" { return "index.html" }
        var parts: [String] = []
        for raw in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let part = percentDecoded(String(raw)), !part.isEmpty, !part.hasPrefix("."),
                  !part.contains("/"), !part.contains("\0") else { return nil }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    static func resolve(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    static func read(_ path: String, size: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, size - done) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            done += count
        }
        return done == size ? bytes : nil
    }
}

/// Content types by file extension (WEB.md §2: the manifest is `application/manifest+json`).
enum ContentTypes {
    static func type(forPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "manifest.json" { return "application/manifest+json" }
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "gif": return "image/gif"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "wasm": return "application/wasm"
        case "map": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
