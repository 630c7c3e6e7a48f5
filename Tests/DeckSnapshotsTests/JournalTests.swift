import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// A journaled store with its first segment open: generation 1 is a file
/// (no segment exists before it), then `maintain()` starts the segment.
func journaled(_ sandbox: Sandbox, keep: Int = 1_000_000, settings: JournalSettings = JournalSettings()) throws -> SnapshotStore {
    let store = try sandbox.open(keep: keep, journal: settings)
    if try store.list(profile: "default").snapshots.isEmpty {
        try store.write(sampleEntry(1))
    }
    store.maintain()
    return store
}

@Suite("The journal: appends, history, restore, retention, checkpoints")
struct JournalTests {
    @Test func generationsAfterTheFirstAreRecordsInOneSegmentAndReadBackWhole() throws {
        let sandbox = try Sandbox("journal")
        let store = try journaled(sandbox)
        for revision in 2...20 { #expect(try store.write(sampleEntry(revision)).written.map(\.generation) == [revision]) }
        #expect(sandbox.files() == ["0000000001.journal", "0000000001.json.gz"])
        #expect(try store.newest(profile: "default").snapshot?.layout == sampleLayout(20))
        let listed = try store.list(profile: "default").snapshots
        #expect(listed.map(\.generation) == Array((1...20).reversed()))
        #expect(listed.map(\.revision) == Array((1...20).reversed()))
        for generation in 1...20 {
            #expect(try store.read(profile: "default", generation: generation).layout == sampleLayout(generation))
        }
    }

    @Test func aReopenedStoreResumesTheNewestRecordAndAppendsAfterIt() throws {
        let sandbox = try Sandbox("journal")
        do {
            let store = try journaled(sandbox)
            for revision in 2...7 { try store.write(sampleEntry(revision)) }
        }
        do {
            let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
            let reading = try store.newest(profile: "default")
            #expect(reading.notices.isEmpty)
            #expect(reading.snapshot?.info.generation == 7)
            #expect(store.write([sampleEntry(8), sampleEntry(9)]).written.map(\.generation) == [8, 9])
            #expect(sandbox.files() == ["0000000001.journal", "0000000001.json.gz"])
        }
        let again = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        #expect(try again.list(profile: "default").snapshots.map(\.generation) == Array((1...9).reversed()))
    }

    @Test func aSegmentPastItsLimitIsCheckpointedAndRetentionDeletesSegmentsNoLongerKept() throws {
        let sandbox = try Sandbox("journal")
        let store = try journaled(sandbox, keep: 4, settings: JournalSettings(recordsPerSegment: 3))
        for revision in 2...12 {
            try store.write(sampleEntry(revision))
            store.maintain()
        }
        store.finishDeletions()
        let listed = try store.list(profile: "default").snapshots.map(\.generation)
        #expect(listed == [12, 11, 10, 9])
        // Checkpoints at 4, 7, 10 began segments 4, 7 and 10; only what holds 9…12 is left.
        let names = sandbox.files()
        #expect(names.filter { $0.hasSuffix(".journal") } == ["0000000007.journal", "0000000010.journal"], "\(names)")
        #expect(names.filter { $0.hasSuffix(".json.gz") } == ["0000000010.json.gz"], "\(names)")
        for generation in listed {
            #expect(try store.read(profile: "default", generation: generation).layout == sampleLayout(generation))
        }
    }

    @Test func aCheckpointMakesTheNewestGenerationAPlainGzipFile() throws {
        let sandbox = try Sandbox("journal")
        let store = try journaled(sandbox)
        for revision in 2...5 { try store.write(sampleEntry(revision)) }
        #expect(!store.newestGenerationsHaveFiles, "the newest is a record only")
        store.checkpoint()
        #expect(store.newestGenerationsHaveFiles)
        let (status, output) = try run("/bin/sh", ["-c", "gzip -dc '\(sandbox.path(5))'"])
        #expect(status == 0)
        #expect(String(decoding: output, as: UTF8.self).contains(#""generation":5"#))
    }

    @Test func withoutAJournalEveryGenerationIsAFileAsBefore() throws {
        let sandbox = try Sandbox("journal")
        let store = try sandbox.open()
        try fill(store, count: 3)
        store.maintain()
        #expect(sandbox.files() == (1...3).map { String(format: "%010d.json.gz", $0) })
    }
}
