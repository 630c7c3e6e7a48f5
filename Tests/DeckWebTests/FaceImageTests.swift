@testable import DeckWeb
import Testing

/// Sniffing face images by their bytes (docs/faces.md §3), and their names.
@Suite struct FaceImageTests {
    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], FaceImage.Kind?.some(.png)),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .jpeg),
        (Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8), .svg),
        (Array("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE svg>\n<svg>\n</svg>".utf8), .svg),
        (Array("  \n<svg\tviewBox='0 0 1 1'></svg>".utf8), .svg),
        (Array("<svgx></svgx>".utf8), nil),
        (Array("<html><svg></svg></html>".utf8), nil),
        (Array("<?xml version=\"1.0\"".utf8), nil),
        (Array("<!-- never ends".utf8), nil),
        (Array("<svg".utf8), nil),
        (Array("GIF89a".utf8), nil),
        ([0x89, 0x50, 0x4E], nil),
        ([], nil),
    ])
    func sniffing(_ bytes: [UInt8], _ kind: FaceImage.Kind?) {
        #expect(FaceImage.sniff(bytes) == kind)
    }

    @Test func namesAndBounds() throws {
        let image = try FaceImage(bytes: Array("<svg/>".utf8))
        #expect(image.kind == .svg && image.kind.mediaType == "image/svg+xml")
        // sha256("<svg/>"), as `printf '<svg/>' | sha256sum` says.
        #expect(image.hash.count == 64 && image.hash.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(image.path == "/faces/\(image.hash).svg")
        #expect(try FaceImage(bytes: Array("<svg/>".utf8)) == image)
        #expect(throws: FaceImage.Refusal.unknownType) { try FaceImage(bytes: [1, 2, 3]) }
        #expect(throws: FaceImage.Refusal.tooLarge(bytes: FaceImage.maximumBytes + 1)) {
            try FaceImage(bytes: [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: FaceImage.maximumBytes - 2))
        }
        let store = FaceImageStore()
        store.add(image)
        #expect(store.image(hash: image.hash) == image && store.count == 1)
        store.remove(hash: image.hash)
        #expect(store.image(hash: image.hash) == nil)
    }

    @Test func knownDigest() throws {
        let image = try FaceImage(bytes: Array("<svg/>".utf8))
        #expect(image.hash == "d4dc56669143034f31aa309635d4113d9ad76a02b1739da22c965ed2049be9e6")
    }
}

/// `GET /faces/HASH.EXT` (docs/faces.md §4), through the responder the web
/// listener uses.
@Suite struct FaceImageServingTests {
    func get(_ target: String, _ store: FaceImageStore, headers: [(String, String)] = []) -> HTTPResponse {
        let request = HTTPRequest(method: "GET", target: target, headers: headers.map { (name: $0.0, value: $0.1) },
                                  minorVersion: 1, keepAlive: true, isUpgrade: false)
        return WebResponder(files: StaticFiles(root: nil), icons: IconCache(search: IconSearch(baseFolders: [], theme: nil)),
                            faces: store).respond(to: request)
    }

    func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test func servedImmutableWithETagAnd304() throws {
        let store = FaceImageStore()
        let png = try FaceImage(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7])
        store.add(png)
        let ok = get(png.path, store)
        #expect(ok.status == 200 && ok.body == png.bytes)
        #expect(header(ok, "Content-Type") == "image/png")
        #expect(header(ok, "Cache-Control") == "public, max-age=31536000, immutable")
        #expect(header(ok, "ETag") == "\"\(png.hash)\"")
        #expect(header(ok, "Content-Security-Policy") == nil)
        let again = get(png.path, store, headers: [("If-None-Match", "\"\(png.hash)\"")])
        #expect(again.status == 304 && again.body.isEmpty)
        for response in [ok, again] {
            let head = String(decoding: response.serialized(), as: UTF8.self).lowercased()
            #expect(head.components(separatedBy: "\r\nx-content-type-options: nosniff\r\n").count == 2,
                    "nosniff exactly once: \(head)")
        }
        #expect(get("/faces/\(png.hash).svg", store).status == 404, "the extension must be the image's")
        store.remove(hash: png.hash)
        #expect(get(png.path, store).status == 404, "forgotten once no face shows it")
        #expect(get("/faces/", store).status == 404 && get("/faces/../x", store).status == 404)
    }

    @Test func svgGetsAPolicyThatRunsNothing() throws {
        let store = FaceImageStore()
        let svg = try FaceImage(bytes: Array("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".utf8))
        store.add(svg)
        let response = get(svg.path, store)
        #expect(response.status == 200 && header(response, "Content-Type") == "image/svg+xml")
        #expect(header(response, "Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'")
    }
}
