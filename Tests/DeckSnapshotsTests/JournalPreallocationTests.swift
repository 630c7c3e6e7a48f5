import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// Version 3's zeros ahead of the records (docs/snapshots.md, "Zeros ahead of
/// the records"): appends overwrite blocks that exist, the zeros grow again
/// after an `ok`, a closed segment loses them, and every read ignores them.
@Suite("Journal segments made longer than their records (version 3)")
struct JournalPreallocationTests {
    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    static func end(_ path: String) throws -> Int {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let header = try JournalFormat.decodeHeader(bytes[...])
        let scan = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
        #expect(scan.problem == nil)
        #expect(bytes[scan.end...].allSatisfy { $0 == 0 })
        return scan.end
    }

    @Test func appendsGoIntoTheZerosWhichGrowAgainAfterTheWrite() throws {
        let sandbox = try Sandbox("journal-zeros")
        let settings = JournalSettings(recordsPerSegment: 1_000, preallocation: 64 << 10)
        let store = try journaled(sandbox, settings: settings)
        let segment = sandbox.folder() + "/0000000001.journal"
        #expect(Self.size(segment) == JournalFormat.fileHeaderSize + (64 << 10), "a new segment gets its zeros at once")
        var sizes: Set<Int> = []
        for revision in 2...120 {
            let before = Self.size(segment)
            try store.write(sampleEntry(revision))
            // The append went into the zeros: the file did not grow with it.
            #expect(Self.size(segment) == before, "revision \(revision)")
            store.maintain()
            let end = try Self.end(segment)
            #expect(Self.size(segment) - end >= 32 << 10, "at least half of the zeros are ahead after maintain()")
            sizes.insert(Self.size(segment))
        }
        #expect(sizes.count > 1, "the zeros grew as the records used them")
        #expect(try store.list(profile: "default").snapshots.count == 120)
    }

    @Test func aStoreOpenedAgainAppendsAfterTheRecordsAndAClosedSegmentLosesItsZeros() throws {
        let sandbox = try Sandbox("journal-zeros-reopen")
        let settings = JournalSettings(recordsPerSegment: 10, preallocation: 64 << 10)
        do {
            let store = try journaled(sandbox, settings: settings)
            for revision in 2...6 { try store.write(sampleEntry(revision)) }
        }
        let first = sandbox.folder() + "/0000000001.journal"
        #expect(try Self.size(first) > Self.end(first))
        do {
            let store = try sandbox.open(keep: 1_000_000, journal: settings)
            let reading = try store.newest(profile: "default")
            #expect(reading.snapshot?.info.generation == 6 && reading.notices.isEmpty)
            for revision in 7...11 {
                try store.write(sampleEntry(revision))
                store.maintain()
            }
            // Ten records: the checkpoint started 0000000011.journal, and the first segment is cut to its records.
            #expect(sandbox.files().contains("0000000011.journal"))
            #expect(try Self.size(first) == Self.end(first))
            for revision in 2...11 {
                #expect(try store.read(profile: "default", generation: revision).layout == sampleLayout(revision))
            }
        }
        let again = try sandbox.open(keep: 1_000_000, journal: settings)
        #expect(try again.list(profile: "default").snapshots.map(\.generation) == Array((1...11).reversed()))
    }

    @Test func withoutPreallocationASegmentIsItsRecords() throws {
        let sandbox = try Sandbox("journal-no-zeros")
        let store = try journaled(sandbox, settings: JournalSettings(preallocation: 0))
        for revision in 2...5 {
            try store.write(sampleEntry(revision))
            store.maintain()
        }
        let segment = sandbox.folder() + "/0000000001.journal"
        #expect(try Self.size(segment) == Self.end(segment))
    }
}
