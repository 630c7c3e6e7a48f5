import DeckModel
import DeckProfiles
import DeckTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@Suite("Profiles folder")
struct FolderTests {
    static func write(_ text: String, _ name: String, in folder: TemporaryDirectory) throws {
        try text.write(to: folder.appending(name), atomically: true, encoding: .utf8)
    }

    static let small = "pages:\n  - buttons: {0: {name: A, action: {page: next}}}\n"

    @Test func listsProfilesByNameAndIgnoresOtherFiles() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "default.yaml", in: folder)
        try Self.write("name: aaa-first\n" + Self.small, "zzz.yml", in: folder)
        try Self.write(Self.small, "notes.txt", in: folder)
        try Self.write(Self.small, ".default.yaml.swp.yaml", in: folder)
        try Self.write(Self.small, "backup.yaml~", in: folder)
        let profiles = ProfileFolder(path: folder.path)
        #expect(try profiles.fileNames() == ["default.yaml", "zzz.yml"])
        let catalog = try profiles.scan()
        #expect(catalog.names == ["aaa-first", "default"])
        #expect(catalog.problems.isEmpty)
        #expect(catalog.profile(named: "default")?.path == folder.appending("default.yaml").path)
        #expect(try profiles.load(named: "aaa-first").fingerprint.file == "zzz.yml")
    }

    @Test func sharedNamesAreAProblemForTheLaterFile() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "default.yaml", in: folder)
        try Self.write("# copy\nname: default\n" + Self.small, "old.yaml", in: folder)
        try Self.write(Self.small, "default.yml", in: folder)
        let catalog = try ProfileFolder(path: folder.path).scan()
        #expect(catalog.names == ["default"])
        #expect(catalog.profile(named: "default")?.fingerprint.file == "default.yaml")
        #expect(catalog.problems.map(\.description) == [
            "\(folder.path)/default.yml:1:1: profile name 'default' is already used by default.yaml; give one of them another name",
            "\(folder.path)/old.yaml:2:7: profile name 'default' is already used by default.yaml; give one of them another name",
        ])
    }

    @Test func brokenFilesAreProblemsAndTheRestLoads() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "good.yaml", in: folder)
        try Self.write("pages:\n  - buttons: {0: {nmae: A}}\n", "bad.yaml", in: folder)
        try FileManager.default.createDirectory(at: folder.appending("folder.yaml"), withIntermediateDirectories: false)
        let profiles = ProfileFolder(path: folder.path)
        let catalog = try profiles.scan()
        #expect(catalog.names == ["good"])
        #expect(catalog.problems.map(\.line) == [2, 2, 1])
        #expect(catalog.problems.last?.message == "cannot read the file: it is a folder, not a file")
        #expect(throws: DeckProfilesError.invalid(catalog.problems.filter { $0.file.hasSuffix("bad.yaml") })) {
            try profiles.load(named: "bad")
        }
        #expect(throws: DeckProfilesError.notFound(profile: "nothing", folder: folder.path, available: ["good"])) {
            try profiles.load(named: "nothing")
        }
    }

    @Test("a FIFO named like a profile is a problem at once; scanning never blocks on it")
    func fifoIsAProblemNotAHang() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "good.yaml", in: folder)
        let path = folder.appending("pipe.yaml").path
        try #require(mkfifo(path, 0o600) == 0)
        let profiles = ProfileFolder(path: folder.path)
        let problems = Mutex<[FileProblem]?>(nil)
        let finished = Blocking.finishes(within: 10, release: { Blocking.unblockFIFO(path) }) {
            let found = try? profiles.scan().problems
            problems.withLock { $0 = found }
        }
        #expect(finished, "scanning the layouts folder blocked on the FIFO")
        #expect(problems.withLock { $0 }?.map(\.description) == ["\(path):1:1: cannot read the file: it is not a regular file"])
    }

    @Test func aMissingFolderIsAClearError() {
        let profiles = ProfileFolder(path: "/nonexistent/deck/layouts")
        #expect(throws: DeckProfilesError.unreadableFolder(path: "/nonexistent/deck/layouts", reason: "No such file or directory")) {
            try profiles.scan()
        }
    }

    @Test func fingerprintsAreZlibCRC32AndSize() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write("hello", "a.yaml", in: folder)
        let print = try #require(try ProfileFolder(path: folder.path).fingerprints().first)
        #expect(print == FileFingerprint(file: "a.yaml", crc32: 0x3610_A686, bytes: 5))
        #expect(print.crc32Hex == "3610a686")
        #expect(FileFingerprint.checksum([]) == 0)
        let encoded = String(decoding: try JSONEncoder().encode(FileFingerprint(file: "d.yaml", crc32: 0xAB, bytes: 812)), as: UTF8.self)
        #expect(encoded.contains(#""crc32":"000000ab""#) && encoded.contains(#""bytes":812"#) && encoded.contains(#""file":"d.yaml""#))
        #expect(try JSONDecoder().decode(FileFingerprint.self, from: Data(encoded.utf8)) == FileFingerprint(file: "d.yaml", crc32: 0xAB, bytes: 812))
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(FileFingerprint.self, from: Data(#"{"file":"x","crc32":"xyz","bytes":1}"#.utf8))
        }
    }

    @Test func changesSinceAnEarlierState() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "a.yaml", in: folder)
        try Self.write(Self.small, "b.yaml", in: folder)
        try Self.write(Self.small, "c.yaml", in: folder)
        let profiles = ProfileFolder(path: folder.path)
        let before = try profiles.scan()
        #expect(before.changes(since: before.fingerprints).isEmpty)
        try Self.write(Self.small, "a.yaml", in: folder)  // saved unchanged: no change
        try Self.write(Self.small + "# edited\n", "b.yaml", in: folder)
        try FileManager.default.removeItem(at: folder.appending("c.yaml"))
        try Self.write(Self.small, "d.yaml", in: folder)
        let changes = FolderChanges(from: before.fingerprints, to: try profiles.fingerprints())
        #expect(changes.added == ["d.yaml"] && changes.changed == ["b.yaml"] && changes.removed == ["c.yaml"])
        #expect(changes.all == ["b.yaml", "c.yaml", "d.yaml"])
        let after = try profiles.scan(reusing: before)
        #expect(after.changes(since: before.fingerprints) == changes)
        #expect(after.names == ["a", "b", "d"])
    }

    @Test func rescanReusesUnchangedFilesAndRereadsChangedOnes() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "a.yaml", in: folder)
        let profiles = ProfileFolder(path: folder.path)
        let first = try profiles.scan()
        try Self.write(Self.small.replacingOccurrences(of: "name: A", with: "name: B"), "a.yaml", in: folder)
        let second = try profiles.scan(reusing: first)
        #expect(second.profile(named: "a")?.profile.layout.button(page: 0, index: 0)?.name == "B")
        #expect(try profiles.scan(reusing: second) == second)
    }

    @Test func loadingAFileRecordsWhatWasRead() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-folder")
        try Self.write(Self.small, "desk.yaml", in: folder)
        let file = try ProfileFile.load(path: folder.appending("desk.yaml").path)
        #expect(file.profile.name == "desk")
        #expect(file.fingerprint == FileFingerprint(file: "desk.yaml", contents: Array(Self.small.utf8)))
        #expect(throws: DeckProfilesError.invalid([FileProblem(
            file: folder.appending("nope.yaml").path, line: 1, column: 1,
            message: "cannot read the file: No such file or directory")])) {
            try ProfileFile.load(path: folder.appending("nope.yaml").path)
        }
    }
}
