import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// Journal settings whose new segments are written in format `version`
/// (1: as the deckd before format 2 wrote them, through the same code path).
func journalSettings(version: UInt32, recordsPerSegment: Int = 1_000) -> JournalSettings {
    var settings = JournalSettings(recordsPerSegment: recordsPerSegment)
    settings.segmentVersion = version
    return settings
}

/// The segment's header and each record's payload, in order.
private func payloads(_ path: String) throws -> (header: JournalFormat.FileHeader, payloads: [[UInt8]]) {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let header = try JournalFormat.decodeHeader(bytes[...])
    let scan = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
    #expect(scan.problem == nil, "\(path): \(scan.problem ?? "")")
    return (header, scan.records.map { Array(bytes[$0.offset..<$0.offset + $0.length]) })
}

/// An entry that records `count` edits, so that its document is mostly edits, as deckd's are.
private func editedEntry(_ revision: Int, edits count: Int) throws -> SnapshotEntry {
    var entry = sampleEntry(revision)
    var layout = sampleLayout(revision)
    var edits: [DeckEdit] = []
    for index in 0..<count {
        let before = layout
        try layout.set(page: 0, index: 1 + index % 4, button: DeckButton(name: "edit \(index)", action: .open("~/\(index)")))
        edits.append(DeckEdit(kind: .set, slots: [DeckSlot(page: 0, index: 1 + index % 4)], from: before, to: layout))
    }
    entry.layout = layout
    entry.edits = edits
    return entry
}

@Suite("Journal segment formats: version 2 records hold the document as it is; version 1 segments still read")
struct JournalFormatVersionTests {
    @Test func aVersion2RecordIsTheDocumentAsItIsAndItsCheckpointIsThatDocumentGzipped() throws {
        let sandbox = try Sandbox("journal-v2")
        do {
            let store = try journaled(sandbox, settings: journalSettings(version: 2))
            for revision in 2...4 { try store.write(try editedEntry(revision, edits: revision * 3)) }
            let (header, records) = try payloads(sandbox.folder() + "/0000000001.journal")
            #expect(header.version == 2)
            #expect(records.count == 3)
            for (offset, payload) in records.enumerated() {
                let generation = offset + 2
                #expect(payload.first == UInt8(ascii: "{"), "generation \(generation) is JSON as it is")
                let expected = try editedEntry(generation, edits: generation * 3)
                let read = try store.read(profile: "default", generation: generation)
                #expect(read.layout == expected.layout && read.edits == expected.edits)
                #expect(read.info.bytes == payload.count)
            }
            let listed = try store.list(profile: "default").snapshots
            #expect(listed.map(\.generation) == [4, 3, 2, 1] && listed.map(\.reason) == Array(repeating: "moveButton", count: 4))
            store.checkpoint()
            let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.path(4))))
            #expect(try ZlibCodec.gunzip(file, limit: 1 << 30) == records[2], "the checkpoint is the record's document, gzipped")
        }
        let reopened = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        #expect(try reopened.newest(profile: "default").snapshot?.edits == (try editedEntry(4, edits: 12)).edits)
    }

    @Test func aDocumentAboveTheRawLimitIsGzippedInItsRecordAndReadsBack() throws {
        let sandbox = try Sandbox("journal-v2-large")
        let store = try journaled(sandbox)
        var layout = try DeckLayout(slotsPerPage: 12, pages: (0..<40).map { _ in .empty(slots: 12) })
        for page in 0..<40 {
            for index in 0..<12 {
                try layout.set(page: page, index: index,
                               button: DeckButton(name: "button \(page).\(index) " + String(repeating: "x", count: 150), action: .open("~")))
            }
        }
        var large = sampleEntry(2)
        large.layout = layout
        try store.write(large)
        try store.write(sampleEntry(3))
        let (_, records) = try payloads(sandbox.folder() + "/0000000001.journal")
        #expect(records[0].count < JournalPayload.rawLimit && records[0].starts(with: [0x1F, 0x8B]), "\(records[0].count) bytes")
        #expect(records[1].first == UInt8(ascii: "{"))
        #expect(try store.read(profile: "default", generation: 2).layout == layout)
        #expect(try store.list(profile: "default").snapshots.map(\.generation) == [3, 2, 1])
    }

    @Test func aVersion1SegmentIsReadAndAppendedToInItsFormatUntilItsCheckpointStartsACurrentOne() throws {
        let sandbox = try Sandbox("journal-v1")
        do {
            let old = try journaled(sandbox, settings: journalSettings(version: 1))
            for revision in 2...5 { try old.write(try editedEntry(revision, edits: revision)) }
        }
        let first = sandbox.folder() + "/0000000001.journal"
        let written = try payloads(first)
        #expect(written.header.version == 1 && written.payloads.count == 4)
        #expect(written.payloads.allSatisfy { $0.starts(with: [0x1F, 0x8B]) }, "version 1 records are gzip")

        do {
            let store = try journaled(sandbox, settings: JournalSettings(recordsPerSegment: 5))
            let reading = try store.newest(profile: "default")
            #expect(reading.notices.isEmpty && reading.snapshot?.info.generation == 5)
            #expect(reading.snapshot?.edits == (try editedEntry(5, edits: 5)).edits, "the rebase's edits are read from version 1")
            for generation in 2...5 {
                #expect(try store.read(profile: "default", generation: generation).layout == (try editedEntry(generation, edits: generation)).layout)
            }
            // Appends go on in the open version-1 segment, as version-1 records.
            try store.write(try editedEntry(6, edits: 6))
            let appended = try payloads(first)
            #expect(appended.header.version == 1 && appended.payloads.count == 5 && appended.payloads[4].starts(with: [0x1F, 0x8B]))
            // Its fifth record makes it full: the checkpoint starts a segment of the current format after it.
            store.maintain()
            try store.write(try editedEntry(7, edits: 7))
            let next = try payloads(sandbox.folder() + "/0000000006.journal")
            #expect(next.header.version == JournalFormat.version && next.payloads.count == 1 && next.payloads[0].first == UInt8(ascii: "{"))
        }
        let again = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        #expect(try again.list(profile: "default").snapshots.map(\.generation) == Array((1...7).reversed()))
        #expect(try again.newest(profile: "default").snapshot?.edits == (try editedEntry(7, edits: 7)).edits)
    }

    @Test func aBatchThatFallsBackToFilesWritesEachDocumentAsGzip() throws {
        let sandbox = try Sandbox("journal-fallback")
        do {
            let store = try journaled(sandbox)
            // "other" has no generation, so no segment: the whole batch goes to files.
            let commit = store.write([sampleEntry(2), sampleEntry(1, profile: "other")])
            #expect(commit.failure == nil && commit.written.map(\.generation) == [2, 1])
            let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.path(2))))
            #expect(file.starts(with: [0x1F, 0x8B]), "a file is gzip even when its folder journals")
        }
        let reopened = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        #expect(try reopened.read(profile: "default", generation: 2).layout == sampleLayout(2))
    }
}
