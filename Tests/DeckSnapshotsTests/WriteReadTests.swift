import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Testing

@Suite("Writing and reading snapshots")
struct WriteReadTests {
    @Test("a written generation reads back equal, at GENERATION.json.gz")
    func roundTrip() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let entry = sampleEntry(57)
        let commit = try store.write(entry)
        #expect(commit.failure == nil)
        let info = try #require(commit.written.first)
        #expect(info.generation == 1)
        #expect(info.revision == 57)
        #expect(info.reason == "moveButton")
        #expect(info.source == entry.source)
        #expect(info.time == entry.time)
        #expect(sandbox.files() == ["0000000001.json.gz"])
        let size = try FileManager.default.attributesOfItem(atPath: sandbox.path(1))[.size] as? Int
        #expect(info.bytes == size)

        let read = try store.read(profile: "default", generation: 1)
        #expect(read.info == info)
        #expect(read.layout == entry.layout)
        let newest = try store.newest(profile: "default")
        #expect(newest.snapshot == read)
        #expect(newest.notices.isEmpty)
    }

    @Test("gzip -dc and python3's gzip + json read the file as PROFILE.md §6 shows it")
    func plainToolsReadIt() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let entry = sampleEntry(57)
        try store.write(entry)

        let gunzipped = try run("/bin/sh", ["-c", "gzip -dc \"$0\"", sandbox.path(1)])
        #expect(gunzipped.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: gunzipped.output) as? [String: Any])
        #expect(object["format"] as? String == "deck-snapshot")
        #expect(object["version"] as? Int == 1)
        #expect(object["profile"] as? String == "default")
        #expect(object["generation"] as? Int == 1)
        #expect(object["revision"] as? Int == 57)
        #expect(object["time"] as? String == "2026-11-29T16:40:57Z")
        #expect(object["reason"] as? String == "moveButton")
        let source = try #require(object["source"] as? [String: Any])
        #expect(source["file"] as? String == "default.yaml")
        #expect(source["crc32"] as? String == "1c291ca3")
        #expect(source["bytes"] as? Int == 812)
        let layoutJSON = try JSONSerialization.data(withJSONObject: try #require(object["layout"]))
        #expect(try JSONDecoder().decode(DeckLayout.self, from: layoutJSON) == entry.layout)

        let script = """
        import gzip, json, sys
        doc = json.load(gzip.open(sys.argv[1]))
        print(doc["format"], doc["version"], doc["generation"], doc["revision"], doc["time"], doc["source"]["crc32"],
              len(doc["layout"]["pages"]), doc["layout"]["pages"][0]["buttons"][0]["name"])
        """
        let python = try run("/usr/bin/env", ["python3", "-c", script, sandbox.path(1)])
        #expect(python.status == 0)
        #expect(String(decoding: python.output, as: UTF8.self)
            == "deck-snapshot 1 1 57 2026-11-29T16:40:57Z 1c291ca3 \(entry.layout.pages.count) tag 57\n")
    }

    @Test("a layout from no file has no source, and reads back so")
    func noSource() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try store.write(sampleEntry(3, source: nil))
        #expect(try store.read(profile: "default", generation: 1).info.source == nil)
        #expect(try store.list(profile: "default").snapshots.first?.source == nil)
        let text = try run("/bin/sh", ["-c", "gzip -dc \"$0\"", sandbox.path(1)]).output
        #expect(!String(decoding: text, as: UTF8.self).contains("\"source\""))
    }

    @Test("names, reasons and files with quotes, newlines and Korean survive the hand-written header")
    func awkwardHeaderStrings() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let profile = "다음 \"페이지\"\n\\ 🎙️"
        let entry = SnapshotEntry(profile: profile, revision: 1, reason: "reason \"q\" \u{1} \t end",
                                  source: SnapshotSource(file: "a\"b\\c.yaml", contents: Data("hello".utf8)),
                                  layout: sampleLayout(1))
        try store.write(entry)
        let listed = try #require(try store.list(profile: profile).snapshots.first)
        #expect(listed.reason == entry.reason)
        #expect(listed.source == entry.source)
        #expect(listed.source?.crc32Hex == "3610a686")
        #expect(try store.read(profile: profile, generation: 1).layout == entry.layout)
    }

    @Test("listing is newest first with every field, and matches what reading gives")
    func listing() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let written = try fill(store, count: 5)
        let listing = try store.list(profile: "default")
        #expect(listing.notices.isEmpty)
        #expect(listing.snapshots.map(\.generation) == [5, 4, 3, 2, 1])
        #expect(listing.snapshots == written.reversed())
        for info in listing.snapshots {
            #expect(try store.read(profile: "default", generation: info.generation).info == info)
        }
        #expect(try store.list(profile: "nobody").snapshots.isEmpty)
        #expect(try store.newest(profile: "nobody").snapshot == nil)
    }

    @Test("retention keeps the newest N, and numbering goes on after a reopen")
    func retention() throws {
        let sandbox = try Sandbox()
        do {
            let store = try sandbox.open(keep: 3)
            try fill(store, count: 7)
            store.retention.wait()
            #expect(sandbox.files() == (5...7).map { String(format: "%010d.json.gz", $0) })
            #expect(try store.list(profile: "default").snapshots.map(\.generation) == [7, 6, 5])
        }
        let reopened = try sandbox.open(keep: 3)
        #expect(try reopened.write(sampleEntry(8)).written.map(\.generation) == [8])
        #expect(try reopened.list(profile: "default").snapshots.map(\.generation) == [8, 7, 6])
        #expect(throws: SnapshotError.invalidKeep(0)) { try SnapshotStore(stateDirectory: sandbox.state, keep: 0) }
    }

    /// A crash between a write and its deletions leaves more than `keep`
    /// generations (here: a store with a larger `keep` left them). The
    /// resume forgets and deletes them, in files and in the journal alike,
    /// so they neither list nor restore before the next write.
    @Test("generations beyond keep that a crash left go at the resume", arguments: [false, true])
    func retentionAtTheResume(journal: Bool) throws {
        let sandbox = try Sandbox()
        do {
            let store = try sandbox.open(keep: 100, journal: journal ? JournalSettings() : nil)
            _ = try fill(store, count: 7)
        }
        do {
            let reopened = try sandbox.open(keep: 3, journal: journal ? JournalSettings() : nil)
            #expect(try reopened.list(profile: "default").snapshots.count == 7, "listed as found until the resume")
            #expect(try reopened.newest(profile: "default").snapshot?.info.generation == 7)
            #expect(try reopened.list(profile: "default").snapshots.map(\.generation) == [7, 6, 5])
            #expect(throws: SnapshotError.notFound(profile: "default", generation: 4)) {
                try reopened.read(profile: "default", generation: 4)
            }
            reopened.retention.wait()
            if !journal {
                #expect(sandbox.files() == (5...7).map { String(format: "%010d.json.gz", $0) })
            }
        }
        let again = try sandbox.open(keep: 3, journal: journal ? JournalSettings() : nil)
        #expect(try again.list(profile: "default").snapshots.map(\.generation) == [7, 6, 5])
    }

    @Test("a batch is numbered in order across profiles and every file is complete")
    func batch() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try store.write(sampleEntry(1))
        let entries = [sampleEntry(2), sampleEntry(3), sampleEntry(4, profile: "stream"), sampleEntry(5)]
        let commit = store.write(entries)
        #expect(commit.failure == nil)
        #expect(commit.written.map(\.generation) == [2, 3, 1, 4])
        #expect(commit.written.map(\.profile) == ["default", "default", "stream", "default"])
        for (entry, info) in zip(entries, commit.written) {
            let read = try store.read(profile: entry.profile, generation: info.generation)
            #expect(read.layout == entry.layout)
            #expect(read.info.revision == entry.revision)
        }
        #expect(!sandbox.files().contains { $0.hasPrefix(".tmp-") })
        #expect(try store.profiles() == ["default", "stream"])
        #expect(store.write([]).written.isEmpty)
    }

    @Test("an invalid entry stops the batch there; the ones before it are written")
    func invalidEntryInBatch() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        let commit = store.write([sampleEntry(1), sampleEntry(-2), sampleEntry(3)])
        #expect(commit.written.map(\.generation) == [1])
        #expect(commit.failure == .invalidEntry("revision -2 is negative"))
        #expect(try store.write(sampleEntry(4)).written.map(\.generation) == [2])
        #expect(throws: SnapshotError.invalidEntry("the reason is empty")) { try store.write(sampleEntry(5, reason: "")) }
    }

    @Test("the last live profile is remembered across a reopen")
    func lastProfile() throws {
        let sandbox = try Sandbox()
        do {
            let store = try sandbox.open()
            #expect(try store.lastProfile() == nil)
            try store.setLastProfile("stream ../x")
            try store.setLastProfile("stream ../x")
            #expect(try store.lastProfile() == "stream ../x")
        }
        let reopened = try sandbox.open()
        #expect(try reopened.lastProfile() == "stream ../x")
        let marker = try String(contentsOfFile: sandbox.state + "/last-profile.json", encoding: .utf8)
        #expect(marker == "{\"profile\":\"stream ../x\"}\n")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: sandbox.state)).contains { $0.hasPrefix(".tmp-") })
    }

    @Test("a garbled last-profile marker is a clear error")
    func garbledMarker() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try Data("{\"profile\":".utf8).write(to: URL(fileURLWithPath: sandbox.state + "/last-profile.json"))
        let error = try #require(throws: SnapshotError.self) { try store.lastProfile() }
        #expect(error.description.contains("last-profile.json is unreadable"))
    }

    @Test("a second store on the same state folder is refused until the first is gone")
    func exclusive() throws {
        let sandbox = try Sandbox()
        var first: SnapshotStore? = try sandbox.open()
        #expect(throws: SnapshotError.stateInUse(path: sandbox.state)) { try sandbox.open() }
        #expect(first != nil)
        first = nil
        _ = try sandbox.open()
    }

    @Test("temporary files of an interrupted write are removed on open and reported")
    func leftovers() throws {
        let sandbox = try Sandbox()
        do { try fill(try sandbox.open(), count: 2) }
        let leftover = sandbox.folder() + "/.tmp-0000000003.json.gz-1234abcd"
        try Data("half a snap".utf8).write(to: URL(fileURLWithPath: leftover))
        try Data("half".utf8).write(to: URL(fileURLWithPath: sandbox.state + "/.tmp-last-profile.json-99"))
        let store = try sandbox.open()
        #expect(store.openingNotices.map(\.description).sorted() == [
            "removed 1 temporary file of an interrupted snapshot write in \(sandbox.state)",
            "removed 1 temporary file of an interrupted snapshot write in snapshots/default",
        ])
        #expect(sandbox.files() == ["0000000001.json.gz", "0000000002.json.gz"])
        #expect(try store.write(sampleEntry(3)).written.map(\.generation) == [3])
    }

    @Test("a generation that does not exist is notFound")
    func notFound() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try fill(store, count: 1)
        #expect(throws: SnapshotError.notFound(profile: "default", generation: 9)) {
            try store.read(profile: "default", generation: 9)
        }
    }

    @Test("files of any zero-padding width are read, and numbering continues above them")
    func anyWidth() throws {
        let sandbox = try Sandbox()
        do { try fill(try sandbox.open(), count: 1) }
        try FileManager.default.moveItem(atPath: sandbox.path(1), toPath: sandbox.folder() + "/41.json.gz")
        do {
            let store = try sandbox.open()
            // The document still says generation 1, so under the name 41 it is set aside.
            #expect(try store.newest(profile: "default").snapshot == nil)
            #expect(sandbox.files() == ["41.json.gz.corrupt"])
            #expect(try store.write(sampleEntry(2)).written.map(\.generation) == [42])
        }
        try FileManager.default.copyItem(atPath: sandbox.path(42), toPath: sandbox.folder() + "/00000000000000000042.json.gz")
        try FileManager.default.removeItem(atPath: sandbox.path(42))
        let reopened = try sandbox.open()
        #expect(try reopened.newest(profile: "default").snapshot?.info.generation == 42)
    }
}
