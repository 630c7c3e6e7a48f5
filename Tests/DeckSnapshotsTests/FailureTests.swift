import DeckModel
import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

@Suite("Writes that fail change nothing")
struct FailureTests {
    @Test("a folder that refuses new files: clear error, no file, previous generation still newest",
          .enabled(if: canMakeUnwritable, "cannot make a folder unwritable here (root without chattr +i support)"))
    func unwritableFolder() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try fill(store, count: 2)
        let before = sandbox.files()
        let restore = try #require(try makeUnwritable(sandbox.folder()))
        defer { restore() }

        let error = try #require(throws: SnapshotError.self) { try store.write(sampleEntry(3)) }
        guard case .system(let operation, let path, let code) = error else {
            Issue.record("expected a system error, got \(error)")
            return
        }
        #expect(operation == "create")
        #expect(path.hasPrefix(sandbox.folder() + "/.tmp-0000000003.json.gz-"))
        #expect(code == EACCES || code == EPERM)
        #expect(error.description.hasPrefix("could not create \(sandbox.folder())/.tmp-0000000003.json.gz-"))
        #expect(error.description.hasSuffix(code == EACCES ? "Permission denied (EACCES)" : "Operation not permitted (EPERM)"))
        #expect(sandbox.files() == before)
        #expect(try store.newest(profile: "default").snapshot?.info.generation == 2)

        restore()
        #expect(try store.write(sampleEntry(3)).written.map(\.generation) == [3])
    }

    @Test("a state folder that cannot be created is a system error naming the folder, not endless recursion")
    func stateFolderThatCannotBeCreated() throws {
        // /proc answers ENOENT for a new folder although its parent exists.
        let error = try #require(throws: SnapshotError.self) { try SnapshotStore(stateDirectory: "/proc/deck-store-test") }
        #expect(error == .system(operation: "create folder", path: "/proc/deck-store-test", code: ENOENT))
        let sandbox = try Sandbox()
        let file = sandbox.state + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let below = try #require(throws: SnapshotError.self) { try SnapshotStore(stateDirectory: file + "/state") }
        #expect(below == .system(operation: "create folder", path: file + "/state/snapshots", code: ENOTDIR))
    }

    @Test("a batch meeting an unwritable folder commits the entries before it, and nothing after",
          .enabled(if: canMakeUnwritable, "cannot make a folder unwritable here (root without chattr +i support)"))
    func batchPrefix() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try store.write(sampleEntry(1, profile: "stream"))
        let restore = try #require(try makeUnwritable(sandbox.folder("stream")))
        defer { restore() }

        let commit = store.write([sampleEntry(1), sampleEntry(2), sampleEntry(3, profile: "stream"), sampleEntry(4)])
        #expect(commit.written.map(\.generation) == [1, 2])
        #expect(commit.written.map(\.revision) == [1, 2])
        #expect(commit.failure != nil)
        #expect(sandbox.files() == ["0000000001.json.gz", "0000000002.json.gz"])
        #expect(sandbox.files("stream") == ["0000000001.json.gz"])
        #expect(try store.read(profile: "default", generation: 2).layout == sampleLayout(2))
        restore()
        #expect(store.write([sampleEntry(5), sampleEntry(6, profile: "stream")]).written.map(\.generation) == [3, 2])
    }

    @Test("an unwritable state folder keeps the last-profile marker as it was",
          .enabled(if: canMakeUnwritable, "cannot make a folder unwritable here (root without chattr +i support)"))
    func markerUnwritable() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try store.setLastProfile("default")
        let restore = try #require(try makeUnwritable(sandbox.state))
        defer { restore() }
        #expect(throws: SnapshotError.self) { try store.setLastProfile("stream") }
        restore()
        // The failed write forgot the cached value, so this reads the file again.
        #expect(try store.lastProfile() == "default")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.state).sorted() == ["last-profile.json", "snapshots"])
    }

    @Test("a disk that fills up mid-write (RLIMIT_FSIZE in a child): clear error, temporary file gone")
    func diskFull() throws {
        let sandbox = try Sandbox()
        do { try fill(try sandbox.open(), count: 1) }
        let helper = try BuiltProducts.path("deck-snapshot-torture")
        let result = try run(helper, ["fill", sandbox.state, "default", "8192"])
        #expect(result.status == 0)
        let said = String(decoding: result.output, as: UTF8.self)
        #expect(said.hasPrefix("could not write \(sandbox.folder())/.tmp-0000000002.json.gz-"))
        #expect(said.hasSuffix("File too large (EFBIG)\n"))
        #expect(sandbox.files() == ["0000000001.json.gz"])
        let store = try sandbox.open()
        #expect(try store.newest(profile: "default").snapshot?.info.generation == 1)
        #expect(try store.write(sampleEntry(2)).written.map(\.generation) == [2])
    }
}
