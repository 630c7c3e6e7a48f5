@testable import DeckControl
import DeckTestSupport
import Foundation
import Testing

@Suite("export -o: atomic file writes")
struct AtomicFileTests {
    static func contents(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    static func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    @Test func writesANewFileAndLeavesNoTemporaryBehind() throws {
        let folder = try TemporaryDirectory(prefix: "atomic")
        let file = folder.appending("desk.yaml")
        try AtomicFile.write(Array("name: desk\n".utf8), to: file.path)
        #expect(try Self.contents(file) == "name: desk\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["desk.yaml"])
    }

    @Test func replacesAnOldFileKeepingItsPermissions() throws {
        let folder = try TemporaryDirectory(prefix: "atomic")
        let file = folder.appending("desk.yaml")
        try "old".write(to: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        try AtomicFile.write(Array("new".utf8), to: file.path)
        #expect(try Self.contents(file) == "new")
        #expect(try Self.mode(file.path) == 0o600)
    }

    @Test func aMissingFolderIsASentenceAndWritesNothing() throws {
        let folder = try TemporaryDirectory(prefix: "atomic")
        let path = folder.appending("missing/desk.yaml").path
        #expect(throws: DeckctlError.self) { try AtomicFile.write([1], to: path) }
        do {
            try AtomicFile.write([1], to: path)
        } catch {
            #expect(error.description == "cannot write '\(path)': No such file or directory; make the folder first, or give a path in one that exists")
            #expect(error.exitStatus == .refused)
        }
    }

    @Test func aFolderIsNotAFile() throws {
        let folder = try TemporaryDirectory(prefix: "atomic")
        do {
            try AtomicFile.write([1], to: folder.path)
            Issue.record("writing over a folder succeeded")
        } catch {
            #expect(error.description == "cannot write '\(folder.path)': it is a folder; give a file name")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
