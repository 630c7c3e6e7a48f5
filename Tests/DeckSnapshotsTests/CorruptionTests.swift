import DeckModel
import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// One way a snapshot file gets damaged, and the reason the notice must give.
struct Damage: CustomTestStringConvertible, Sendable {
    let name: String
    let reason: String
    let apply: @Sendable ([UInt8]) -> [UInt8]
    var testDescription: String { name }

    static func flip(_ name: String, reason: String, at offset: @escaping @Sendable (Int) -> Int) -> Damage {
        Damage(name: name, reason: reason) { bytes in
            var bytes = bytes
            bytes[offset(bytes.count)] ^= 0x5A
            return bytes
        }
    }

    /// A valid gzip of `text`, made by the `gzip` program, not by the store.
    static func gzipped(_ name: String, reason: String, text: @escaping @Sendable ([UInt8]) -> String) -> Damage {
        Damage(name: name, reason: reason) { bytes in
            let folder = try? TemporaryDirectory(prefix: "damage")
            let path = (folder?.path ?? "/nonexistent") + "/doc"
            try? Data(text(bytes).utf8).write(to: URL(fileURLWithPath: path))
            return (try? run("/bin/sh", ["-c", "gzip -c \"$0\"", path]).output).map(Array.init) ?? []
        }
    }

    /// The file's own JSON, edited.
    static func document(_ bytes: [UInt8]) -> String {
        (try? run("/bin/sh", ["-c", "printf '%s' \"$0\" | base64 -d | gzip -dc", Data(bytes).base64EncodedString()]))
            .map { String(decoding: $0.output, as: UTF8.self) } ?? ""
    }

    static let all: [Damage] = [
        flip("magic byte", reason: "not a gzip file") { _ in 0 },
        flip("compression method byte", reason: "gzip header damaged (unknown compression method)") { _ in 2 },
        flip("first deflate byte", reason: "damaged deflate data") { _ in 10 },
        flip("middle", reason: "") { $0 / 2 },
        flip("CRC-32 in the trailer", reason: "gzip CRC mismatch") { $0 - 6 },
        flip("length in the trailer", reason: "gzip length mismatch") { $0 - 2 },
        Damage(name: "cut in half", reason: "the file is truncated") { Array($0.prefix($0.count / 2)) },
        Damage(name: "cut before the trailer", reason: "the file is truncated") { Array($0.dropLast(4)) },
        Damage(name: "emptied", reason: "the file is empty") { _ in [] },
        Damage(name: "ten bytes", reason: "the file is truncated") { Array($0.prefix(10)) },
        Damage(name: "stray bytes after the end", reason: "3 stray bytes follow the gzip data") { $0 + [1, 2, 3] },
        gzipped("not JSON", reason: "its JSON does not parse") { _ in "{\"format\": nope" },
        gzipped("another format", reason: "its format is 'other', not 'deck-snapshot'") {
            document($0).replacingOccurrences(of: "deck-snapshot", with: "other")
        },
        gzipped("a newer version", reason: "it is version 2 of the snapshot format; this deckd reads version 1") {
            document($0).replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
        },
        gzipped("another generation", reason: "it says generation 7 but is named 3") {
            document($0).replacingOccurrences(of: "\"generation\":3", with: "\"generation\":7")
        },
        gzipped("a field missing", reason: "field 'revision' is missing") {
            document($0).replacingOccurrences(of: "\"revision\":3,", with: "")
        },
        // A revision from a file is untrusted: near Int.max the next edit's + 1 trapped the host.
        gzipped("a negative revision", reason: "its revision -3 is negative") {
            document($0).replacingOccurrences(of: "\"revision\":3,", with: "\"revision\":-3,")
        },
        gzipped("a revision near Int.max", reason: "its revision 9223372036854775806 is larger than 9007199254740991") {
            document($0).replacingOccurrences(of: "\"revision\":3,", with: "\"revision\":9223372036854775806,")
        },
        gzipped("the largest revision", reason: "its revision 9223372036854775807 is larger than 9007199254740991") {
            document($0).replacingOccurrences(of: "\"revision\":3,", with: "\"revision\":9223372036854775807,")
        },
        gzipped("an invalid layout", reason: "'layout.pages[0].buttons[0]' is invalid") {
            document($0).replacingOccurrences(of: "\"name\":\"tag 3\"", with: "\"name\":\"\"")
        },
    ]
}

@Suite("Damaged snapshot files")
struct CorruptionTests {
    @Test("the newest file damaged: set aside as .corrupt, reported, previous generation resumed",
          arguments: Damage.all)
    func fallback(damage: Damage) throws {
        let sandbox = try Sandbox()
        let written = try fill(try sandbox.open(), count: 3)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.path(3))))
        let damaged = damage.apply(original)
        try #require(damaged != original)
        try Data(damaged).write(to: URL(fileURLWithPath: sandbox.path(3)))

        // A fresh store, as after a restart: nothing is cached.
        let reopened = try sandbox.open()
        let reading = try reopened.newest(profile: "default")
        #expect(reading.snapshot?.info == written[1])
        #expect(reading.snapshot?.layout == sampleLayout(2))
        let notice = try #require(reading.notices.first)
        #expect(reading.notices.count == 1)
        #expect(notice.kind == .corrupt)
        #expect(notice.generation == 3)
        #expect(notice.profile == "default")
        #expect(notice.message.hasPrefix("snapshot default/0000000003 was corrupt (\(damage.reason)"))
        #expect(notice.message.hasSuffix("); kept as 0000000003.json.gz.corrupt; resumed generation 2"))
        #expect(sandbox.files() == ["0000000001.json.gz", "0000000002.json.gz", "0000000003.json.gz.corrupt"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.path(3) + ".corrupt")) == Data(damaged))

        // The number is never reused, and the corrupt file stays out of listings.
        #expect(try reopened.write(sampleEntry(4)).written.map(\.generation) == [4])
        #expect(try reopened.list(profile: "default").snapshots.map(\.generation) == [4, 2, 1])
    }

    @Test("every file damaged: no snapshot, one notice each, newest first")
    func nothingLeft() throws {
        let sandbox = try Sandbox()
        do { try fill(try sandbox.open(), count: 2) }
        for generation in 1...2 {
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: sandbox.path(generation)))
        }
        let store = try sandbox.open()
        let reading = try store.newest(profile: "default")
        #expect(reading.snapshot == nil)
        #expect(reading.notices.map(\.message) == [
            "snapshot default/0000000002 was corrupt (not a gzip file); kept as 0000000002.json.gz.corrupt; no intact snapshot is left",
            "snapshot default/0000000001 was corrupt (not a gzip file); kept as 0000000001.json.gz.corrupt; no intact snapshot is left",
        ])
        #expect(try store.write(sampleEntry(3)).written.map(\.generation) == [3])
    }

    @Test("restoring a damaged generation is a corrupt error with the notice, and it is set aside")
    func restoreDamaged() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try fill(store, count: 2)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.path(1))))
        bytes[bytes.count - 6] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: sandbox.path(1)))
        let error = try #require(throws: SnapshotError.self) { try store.read(profile: "default", generation: 1) }
        #expect(error.description == "snapshot default/0000000001 was corrupt (gzip CRC mismatch); kept as 0000000001.json.gz.corrupt")
        #expect(sandbox.files() == ["0000000001.json.gz.corrupt", "0000000002.json.gz"])
        #expect(try store.newest(profile: "default").snapshot?.info.generation == 2)
    }

    @Test("listing sets aside a file whose start is damaged, and a second corrupt copy keeps both")
    func listingSetsAside() throws {
        let sandbox = try Sandbox()
        let store = try sandbox.open()
        try fill(store, count: 3)
        try Data("old corrupt copy".utf8).write(to: URL(fileURLWithPath: sandbox.path(2) + ".corrupt"))
        try Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + Array(repeating: 0xFF, count: 40))
            .write(to: URL(fileURLWithPath: sandbox.path(2)))
        let listing = try store.list(profile: "default")
        #expect(listing.snapshots.map(\.generation) == [3, 1])
        #expect(listing.notices.map(\.message) == [
            "snapshot default/0000000002 was corrupt (damaged deflate data (invalid block type)); kept as 0000000002.json.gz-2.corrupt",
        ])
        #expect(sandbox.files().contains("0000000002.json.gz.corrupt"))
        #expect(sandbox.files().contains("0000000002.json.gz-2.corrupt"))
    }

    @Test("a file too large to be a snapshot is set aside without being read")
    func huge() throws {
        let sandbox = try Sandbox()
        do { try fill(try sandbox.open(), count: 2) }
        // Sparse: 300 MiB on paper, nothing on disk.
        #expect(truncate(sandbox.path(2), 300 << 20) == 0)
        let reading = try sandbox.open().newest(profile: "default")
        #expect(reading.snapshot?.info.generation == 1)
        #expect(reading.notices.map(\.message) == [
            "snapshot default/0000000002 was corrupt (it is larger than 256 MiB); kept as 0000000002.json.gz.corrupt; resumed generation 1",
        ])
    }
}
