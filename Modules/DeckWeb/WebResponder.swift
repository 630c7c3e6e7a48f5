/// Which response a request gets (WEB.md §2), apart from the WebSocket upgrade.
/// Nothing here reveals the layout or a token: only the app's files and icons.
struct WebResponder {
    let files: StaticFiles
    let icons: IconCache
    var faces: FaceImageStore?
    /// Under TLS (`--tls`): the page's socket is `wss:`, else `ws:`.
    var secure = false

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let head = request.method == "HEAD"
        // Closed after it: a body or a tunnel may follow the head unread.
        guard request.method == "GET" || head else { return .text(405, "Only GET and HEAD are served.", close: true) }
        var response: HTTPResponse
        let path = request.path
        if path == "/ws" {
            response = .text(426, "This is the deck's WebSocket: connect with a WebSocket client.")
        } else if path.hasPrefix("/icons/") {
            let name = StaticFiles.percentDecoded(String(path.dropFirst("/icons/".count))) ?? ""
            if let icon = icons.icon(named: name) {
                response = serve(icon, request)
            } else {
                response = .text(404, "No icon named '\(name)' in this machine's icon themes.")
            }
        } else if path.hasPrefix("/faces/") {
            response = faceImage(String(path.dropFirst("/faces/".count)), request)
        } else if let file = files.file(for: path) {
            response = serve(file, request)
        } else if path == "/" || path == "/index.html" {
            response = serve(BuiltInPage.file, request)
        } else {
            response = .text(404, "Nothing here: \(path).")
        }
        response.omitBody = head
        return response
    }

    /// `HASH.EXT` from the face store (docs/faces.md §4): immutable, the
    /// hash as a strong ETag, 304 on a match; SVG under a CSP that lets it
    /// run nothing.
    private func faceImage(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let image = faces?.image(hash: String(parts[0])),
              image.kind.fileExtension == parts[1] else {
            return .text(404, "No face shows an image named '\(name)' now.")
        }
        var headers: [(String, String)] = [("Content-Type", image.kind.mediaType), ("ETag", "\"\(image.hash)\""),
                                           ("Cache-Control", "public, max-age=31536000, immutable")]
        // nosniff, which an image's type relies on, is on every response (HTTPResponse.serialized).
        if image.kind == .svg {
            headers.append(("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'"))
        }
        if let tags = request.header("if-none-match"), Self.matches(tags, "\"\(image.hash)\"") {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: headers, body: image.bytes)
    }

    /// A file with its validators; `304` when the client has it; gzip when allowed.
    private func serve(_ file: StaticFile, _ request: HTTPRequest) -> HTTPResponse {
        let gzip = file.gzipped != nil && Self.acceptsGzip(request)
        let etag = gzip ? file.gzipETag : file.etag
        var headers: [(String, String)] = [("Content-Type", file.contentType), ("ETag", etag),
                                           ("Cache-Control", "no-cache")]
        if file.gzipped != nil { headers.append(("Vary", "Accept-Encoding")) }
        if file.isPage { headers += Self.pageHeaders(host: request.header("host"), secure: secure) }
        if let tags = request.header("if-none-match"), Self.matches(tags, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        return HTTPResponse(status: 200, headers: headers, body: gzip ? file.gzipped! : file.bytes)
    }

    /// The page may load only from its own origin and talk only to its own
    /// WebSocket (WEB.md §2): `ws:` or, under TLS, `wss:`.
    static func pageHeaders(host: String?, secure: Bool) -> [(String, String)] {
        var connect = "'self'"
        if let host, !host.isEmpty, host.utf8.allSatisfy({ byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || Array("-.:[]".utf8).contains(byte)
        }) {
            // Older Safari does not count ws: as 'self'; name the socket itself.
            connect += secure ? " wss://\(host)/ws" : " ws://\(host)/ws"
        }
        let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
            + "manifest-src 'self'; connect-src \(connect); base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return [("Content-Security-Policy", policy), ("X-Frame-Options", "DENY")]
    }

    /// `Accept-Encoding` allows gzip: named without `q=0`, or `*` without
    /// `q=0` when gzip is not named (RFC 9110 §12.5.3: a coding named
    /// explicitly is not covered by `*`).
    static func acceptsGzip(_ request: HTTPRequest) -> Bool {
        var gzip: Double?
        var any: Double?
        for token in request.tokens("accept-encoding") {
            let parts = token.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if parts.first == "gzip" || parts.first == "x-gzip" { gzip = max(gzip ?? 0, quality) }
            if parts.first == "*" { any = max(any ?? 0, quality) }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// `If-None-Match`: `*` or a list of tags (weak comparison, RFC 9110 §13.1.2).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: " \t")
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}

