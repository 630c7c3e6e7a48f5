import Foundation
@testable import MediaPlugin
import Testing

/// `mpris:artUrl` to image bytes for file: URLs: bounded, sniffed.
@Suite struct AlbumArtTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("media-art-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aSmallPNGAtAFileURLWithEscapesIsRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cover art.png")
        try Data(Self.png).write(to: file)
        let url = "file://" + folder.path + "/cover%20art.png"
        #expect(try AlbumArt.load(url).get() == Self.png)
        #expect(try AlbumArt.load("file://localhost" + folder.path + "/cover%20art.png").get() == Self.png)
    }

    @Test func aFileOverTheBoundIsRefusedWithoutBeingRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.png")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data(Self.png)))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 50 << 20)  // 50 MB, sparse
        try handle.close()
        #expect(throws: MediaError("art file \(file.path) is 52428800 bytes, over the 256 KiB a button image may be")) {
            try AlbumArt.load("file://" + file.path).get()
        }
    }

    @Test(arguments: [
        ("https://example.invalid/a.png", "art at https://example.invalid/a.png is fetched over the network, not read as a file"),
        ("data:image/png;base64,AAAA", "art URL data:image/png;base64,AAAA is not a file:, http: or https: URL"),
        ("file://elsewhere/a.png", "art URL file://elsewhere/a.png names another host"),
        ("file:///a%2", "art URL file:///a%2 has a bad %-escape"),
        ("file:///a%00b", "art URL file:///a%00b has a bad %-escape"),
        ("file:///dev/null", "art file /dev/null is not a regular file"),
    ])
    func otherURLsAreRefusedClearly(url: String, message: String) {
        #expect(throws: MediaError(message)) { try AlbumArt.load(url).get() }
    }

    @Test func aFileThatIsNoImageIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: file)
        #expect(throws: MediaError("art file \(file.path) is not a PNG, JPEG or SVG image")) {
            try AlbumArt.load("file://" + file.path).get()
        }
    }
}
