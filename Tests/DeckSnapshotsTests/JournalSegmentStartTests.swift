@testable import DeckSnapshots
import Testing

/// When a folder is given a journal segment: only once it holds a generation,
/// and a start is tried once per file commit of that folder, not after every
/// commit of any folder (issue 28: a profile looked up by name and never
/// written cost every edit of another profile a failed create and a warning).
@Suite("The journal: when a folder's segment is started")
struct JournalSegmentStartTests {
    @Test func aProfileLookedUpAndNeverWrittenGetsNoSegmentAndCostsOtherCommitsNothing() throws {
        let sandbox = try Sandbox("segment-start")
        let store = try journaled(sandbox)
        // The host resolves a profile by name: its history is read, its folder never made.
        #expect(try store.list(profile: "ghost").snapshots.isEmpty)
        for revision in 2...6 {
            let commit = store.write([sampleEntry(revision)])
            #expect(commit.failure == nil)
            #expect(commit.notices.isEmpty, "\(commit.notices.map(\.message))")
            store.maintain()
        }
        #expect(sandbox.files() == ["0000000001.journal", "0000000001.json.gz"])
        #expect(sandbox.files("ghost") == [])
        // Its first write is a file, and the segment starts after it.
        #expect(try store.write(sampleEntry(1, profile: "ghost")).written.map(\.generation) == [1])
        store.maintain()
        #expect(sandbox.files("ghost") == ["0000000001.journal", "0000000001.json.gz"])
        #expect(try store.write(sampleEntry(2, profile: "ghost")).written.map(\.generation) == [2])
        #expect(sandbox.files("ghost") == ["0000000001.journal", "0000000001.json.gz"])
    }
}
