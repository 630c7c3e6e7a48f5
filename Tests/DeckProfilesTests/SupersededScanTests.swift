import DeckProfiles
import Foundation
import Synchronization
import Testing

/// A scan of the layouts folder gives up at a safe point once a newer save
/// waits (issue 18 §3: a good save after a 200,000-key file waited for it).
@Suite("A scan that a newer save supersedes")
struct SupersededScanTests {
    static func manyKeys(_ count: Int) -> String {
        "name: default\npages:\n  - buttons:\n      0:\n        name: Big\n        action:\n          plugin: p\n          command: c\n          settings:\n"
            + (0..<count).map { "            k\($0): \($0)\n" }.joined()
    }

    static func folder(_ files: [String: String]) throws -> ProfileFolder {
        let url = FileManager.default.temporaryDirectory.appending(path: "deck-superseded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: url.appending(path: name), atomically: true, encoding: .utf8) }
        return ProfileFolder(path: url.path)
    }

    @Test func aScanGivesUpInsideAHugeFileWhenAskedAndReadsItAllWhenNot() throws {
        let folder = try Self.folder(["default.yaml": Self.manyKeys(20_000)])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        // Asked once between files, then every 4,096 YAML events: the third
        // question falls inside the file's ~40,000 events.
        let asked = Atomic<Int>(0)
        let gaveUp = try folder.scan(reusing: nil, giveUpWhen: { asked.add(1, ordering: .relaxed).newValue >= 3 })
        #expect(gaveUp == nil)
        #expect(asked.load(ordering: .relaxed) == 3)
        let whole = try #require(try folder.scan(reusing: nil, giveUpWhen: { false }))
        #expect(whole.profile(named: "default")?.profile.layout.button(page: 0, index: 0)?.name == "Big")
        #expect(whole.files.allSatisfy { $0.problems.isEmpty })
    }

    @Test func aScanGivesUpBetweenFiles() throws {
        let folder = try Self.folder(["a.yaml": "pages: []\n", "b.yaml": "pages: []\n"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let asked = Atomic<Int>(0)
        #expect(try folder.scan(reusing: nil, giveUpWhen: { asked.add(1, ordering: .relaxed).newValue >= 2 }) == nil)
        #expect(try folder.scan(reusing: nil, giveUpWhen: { false })?.names == ["a", "b"])
    }
}
