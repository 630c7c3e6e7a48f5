import Foundation
import Testing
@testable import DeckWeb

@Suite("the web app's files")
struct StaticFilesTests {
    @Test(arguments: [
        ("/", "index.html"), ("/app.js", "app.js"), ("/engine/geometry.mjs", "engine/geometry.mjs"),
        ("/a%20b.css", "a b.css"),
    ])
    func requestPathsMapIntoTheFolder(_ path: String, _ relative: String) {
        #expect(StaticFiles.relativePath(path) == relative)
    }

    @Test(arguments: ["/../x", "/a/../b", "/.git/config", "/%2e%2e/x", "/a//b", "/a/", "x", "/%zz", "/a%2fb", "/a%00b"])
    func pathsThatCouldEscapeOrHideAreRefused(_ path: String) {
        #expect(StaticFiles.relativePath(path) == nil)
    }

    @Test(arguments: [
        ("index.html", "text/html; charset=utf-8"), ("x.mjs", "text/javascript; charset=utf-8"),
        ("manifest.webmanifest", "application/manifest+json"), ("manifest.json", "application/manifest+json"),
        ("data.json", "application/json"), ("i.SVG", "image/svg+xml"), ("README", "application/octet-stream"),
    ])
    func typesByExtension(_ name: String, _ type: String) {
        #expect(ContentTypes.type(forPath: "/web/" + name) == type)
    }

    @Test func aSymlinkOutOfTheFolderIsNotFollowed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("deckweb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "secret".write(to: root.appendingPathComponent("../deckweb-outside-\(root.lastPathComponent)"), atomically: true,
                           encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root.path + "/leak",
                                                   withDestinationPath: "../deckweb-outside-\(root.lastPathComponent)")
        try "ok".write(to: root.appendingPathComponent("inside.txt"), atomically: true, encoding: .utf8)
        let files = StaticFiles(root: root.path)
        #expect(files.file(for: "/leak") == nil)
        #expect(files.file(for: "/inside.txt")?.bytes == Array("ok".utf8))
        #expect(!files.hasPage)
        try? FileManager.default.removeItem(atPath: root.deletingLastPathComponent().path + "/deckweb-outside-\(root.lastPathComponent)")
    }

    @Test func gzipIsMadeOnceAndOnlyWhenItHelps() {
        let text = StaticFile(bytes: Array(String(repeating: "let x = 1;\n", count: 100).utf8), contentType: "text/javascript")
        #expect(text.gzipped != nil && text.gzipped!.count < text.bytes.count)
        #expect(text.gzipETag != text.etag && text.etag.hasPrefix("\"") && !text.etag.hasPrefix("W/"))
        let tiny = StaticFile(bytes: Array("x".utf8), contentType: "text/plain")
        #expect(tiny.gzipped == nil)
        let image = StaticFile(bytes: [UInt8](repeating: 7, count: 4096), contentType: "image/png")
        #expect(image.gzipped == nil)  // images are compressed already
    }

    @Test(arguments: [
        ("\"abc\"", "\"abc\"", true), ("W/\"abc\"", "\"abc\"", true), ("\"x\", \"abc\"", "\"abc\"", true),
        ("*", "\"abc\"", true), ("\"abd\"", "\"abc\"", false),
    ])
    func ifNoneMatch(_ header: String, _ etag: String, _ matches: Bool) {
        #expect(WebResponder.matches(header, etag) == matches)
    }

    @Test func theBuiltInPageSaysTheAppIsMissing() {
        let page = String(decoding: BuiltInPage.file.bytes, as: UTF8.self)
        #expect(page.contains("not installed") && page.contains("--web-root"))
        #expect(BuiltInPage.file.isPage)
    }
}

@Suite("where an installed deckd finds the web app")
struct InstalledRootTests {
    @Test func besideTheExecutableUnderShareDeckdWeb() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("deckweb-prefix-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/deckd/web", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: prefix + "/bin/deckd", atomically: true, encoding: .utf8)
        #expect(WebConfiguration.installedRoot(executable: prefix + "/bin/deckd") == nil)  // no index.html yet
        try "<!doctype html>".write(toFile: prefix + "/share/deckd/web/index.html", atomically: true, encoding: .utf8)
        let found = WebConfiguration.installedRoot(executable: prefix + "/bin/deckd")
        #expect(found == StaticFiles.resolve(prefix + "/share/deckd/web"))
    }
}
