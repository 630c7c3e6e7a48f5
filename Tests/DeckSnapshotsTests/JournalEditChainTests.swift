import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// A live layout and the client edits made on it since its file was loaded,
/// as deckd hands them to the store: each edit recorded with what its slots
/// held, the list growing by one per edit, started anew by a reload.
private struct EditingSession {
    var layout = sampleLayout(1)
    var edits: [DeckEdit] = []
    var revision = 1
    var rng: SeededGenerator

    init(seed: UInt64) {
        rng = SeededGenerator(seed: seed)
    }

    /// One client edit of a random slot on the first page.
    mutating func edit() throws -> SnapshotEntry {
        let before = layout
        let slot = DeckSlot(page: 0, index: Int.random(in: 0..<layout.slotsPerPage, using: &rng))
        revision += 1
        try layout.set(page: slot.page, index: slot.index, button: DeckButton(name: "edit \(revision)", action: .open("~/\(revision)")))
        edits.append(DeckEdit(kind: .set, slots: [slot], from: before, to: layout))
        return entry(reason: "setButton")
    }

    /// A reload: the file's layout, no edits.
    mutating func reload() -> SnapshotEntry {
        revision += 1
        layout = sampleLayout(revision)
        edits = []
        return entry(reason: "reload")
    }

    func entry(reason: String) -> SnapshotEntry {
        var entry = sampleEntry(revision, reason: reason)
        entry.layout = layout
        entry.edits = edits
        return entry
    }
}

/// Version 3: a record whose edits extend the record's before it carries only
/// the ones it adds (docs/snapshots.md, "Records that add edits").
@Suite("Journal records that add edits (version 3)")
struct JournalEditChainTests {
    /// The segment's record payloads, in order.
    static func payloads(_ sandbox: Sandbox, _ name: String = "0000000001.journal") throws -> [[UInt8]] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.folder() + "/" + name)))
        let header = try JournalFormat.decodeHeader(bytes[...])
        let scan = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
        #expect(scan.problem == nil)
        return scan.records.map { Array(bytes[$0.offset..<$0.offset + $0.length]) }
    }

    static func continues(_ payload: [UInt8]) -> Bool {
        payload.firstRange(of: Array(#","editsAfter":"#.utf8)) != nil
    }

    @Test(arguments: 0..<4)
    func everyGenerationReadsBackWithItsEditsWholeAfterEditsAndReloads(seed: Int) throws {
        let sandbox = try Sandbox("journal-chain")
        var session = EditingSession(seed: UInt64(seed) &+ 0xED17)
        var written: [Int: SnapshotEntry] = [:]
        do {
            let store = try journaled(sandbox)
            for step in 0..<90 {
                let entry = step % 37 == 36 ? session.reload() : try session.edit()
                #expect(try store.write(entry).written.map(\.generation) == [entry.revision])
                written[entry.revision] = entry
            }
            for (generation, entry) in written {
                let read = try store.read(profile: "default", generation: generation)
                #expect(read.layout == entry.layout && read.edits == entry.edits, "generation \(generation)")
            }
            let records = try Self.payloads(sandbox)
            // Only the segment's first record, those after a reload and those after 64 in a row carry their edits whole.
            let starts = records.indices.filter { !Self.continues(records[$0]) }.map { $0 + 2 }
            #expect(starts == [2, 38, 75], "\(starts)")
            // Generation 37 carries 35 edits; its record holds the one it adds.
            let entry = try #require(written[37])
            let document = try SnapshotDocument.encode(SnapshotHeader(profile: "default", generation: 37, revision: 37, time: entry.time,
                                                                   reason: entry.reason, source: entry.source),
                                                    layout: entry.layout, edits: entry.edits)
            #expect(records[35].count * 3 < document.count, "\(records[35].count) bytes against \(document.count) whole")
            store.checkpoint()
            let file = try SnapshotStore.verdict(onFile: try [UInt8](Data(contentsOf: URL(fileURLWithPath: sandbox.path(91)))),
                                                 profile: "default", generation: 91)
            guard case .intact(let checkpoint) = file else { Issue.record("the checkpoint is not intact: \(file)"); return }
            #expect(checkpoint.edits == written[91]?.edits, "a checkpoint's file carries the edits whole")
        }
        let reopened = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        #expect(try reopened.newest(profile: "default").snapshot?.edits == written[91]?.edits)
        #expect(try reopened.read(profile: "default", generation: 60).edits == written[60]?.edits)
        // A new run's first record carries its edits whole; the next continues it.
        try reopened.write(try session.edit())
        try reopened.write(try session.edit())
        let records = try Self.payloads(sandbox)
        #expect(!Self.continues(records[records.count - 2]) && Self.continues(records[records.count - 1]))
        #expect(try reopened.newest(profile: "default").snapshot?.edits == session.edits)
    }

    @Test func aChainReachesGenerationsRetentionForgot() throws {
        let sandbox = try Sandbox("journal-chain-keep")
        var session = EditingSession(seed: 3)
        do {
            let store = try journaled(sandbox, keep: 2)
            for _ in 0..<20 { try store.write(try session.edit()) }
            #expect(try store.list(profile: "default").snapshots.map(\.generation) == [21, 20])
            #expect(try store.newest(profile: "default").snapshot?.edits == session.edits)
        }
        let reopened = try sandbox.open(keep: 2, journal: JournalSettings())
        #expect(try reopened.read(profile: "default", generation: 20).edits == Array(session.edits.dropLast()))
        #expect(try reopened.newest(profile: "default").snapshot?.edits == session.edits)
    }

    @Test func atMost64RecordsInARowContinueAnother() throws {
        let sandbox = try Sandbox("journal-chain-long")
        var session = EditingSession(seed: 5)
        let store = try journaled(sandbox)
        for _ in 0..<70 { try store.write(try session.edit()) }
        let records = try Self.payloads(sandbox)
        #expect(records.indices.filter { !Self.continues(records[$0]) }.map { $0 + 2 } == [2, 67])
        #expect(try store.read(profile: "default", generation: 66).edits == Array(session.edits.prefix(65)))
        #expect(try store.newest(profile: "default").snapshot?.edits == session.edits)
    }

    @Test func aBatchChainsItsOwnRecords() throws {
        let sandbox = try Sandbox("journal-chain-batch")
        var session = EditingSession(seed: 9)
        let store = try journaled(sandbox)
        var batch: [SnapshotEntry] = []
        for _ in 0..<4 { batch.append(try session.edit()) }
        #expect(store.write(batch).written.map(\.generation) == [2, 3, 4, 5])
        #expect(try Self.payloads(sandbox).map(Self.continues) == [false, true, true, true])
        for entry in batch {
            #expect(try store.read(profile: "default", generation: entry.revision).edits == entry.edits)
        }
    }

    @Test func aDamagedRecordIsRefusedWithTheGenerationsWhoseEditsGoThroughIt() throws {
        let sandbox = try Sandbox("journal-chain-damage")
        var session = EditingSession(seed: 11)
        var entries: [SnapshotEntry] = []
        do {
            let store = try journaled(sandbox)
            for _ in 0..<6 {
                let entry = try session.edit()
                try store.write(entry)
                entries.append(entry)
            }
        }
        // Generation 4's record (the third) says it continues generation 9: a document damaged past its checksum.
        let segment = sandbox.folder() + "/0000000001.journal"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        let header = try JournalFormat.decodeHeader(bytes[...])
        let scan = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
        bytes.removeSubrange(scan.end...)  // the zeros after the records
        let records = scan.records
        let third = records[2]
        var payload = Array(bytes[third.offset..<third.offset + third.length])
        let marker = Array(#","editsAfter":3,"#.utf8)
        let at = try #require(payload.firstRange(of: marker))
        payload.replaceSubrange(at, with: Array(#","editsAfter":9,"#.utf8))
        var rebuilt = Array(bytes[..<(third.offset - JournalFormat.recordHeaderSize)])
        JournalFormat.appendRecord(generation: 4, payload: payload, header: header, to: &rebuilt)
        bytes = rebuilt + bytes[(third.offset + third.length)...]
        try Data(bytes).write(to: URL(fileURLWithPath: segment))

        let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        let reading = try store.newest(profile: "default")
        #expect(reading.snapshot?.info.generation == 3 && reading.snapshot?.edits == entries[1].edits)
        #expect(reading.notices.count == 1 && reading.notices[0].message.contains("its edits continue generation 9"),
                "\(reading.notices.map(\.message))")
        #expect(try store.list(profile: "default").snapshots.map(\.generation) == [3, 2, 1])
        #expect(sandbox.files().contains { $0.hasPrefix("0000000001.journal-") && $0.hasSuffix(".corrupt") })
    }

    /// A record whose checksum matches but whose document is refused was
    /// written so: reading it (a history, a restore) must not cut the intact
    /// records after it, the resumed one among them, or the next start would
    /// resume an older generation (found by the `journal` fuzz target).
    @Test func readingAnOldDamagedRecordLeavesTheOnesAfterIt() throws {
        let sandbox = try Sandbox("journal-refused-record")
        let (segment, bytes) = try handMadeSegment(sandbox, generations: 2...4, form: { _ in .whole }) { generation, document in
            if generation == 3 { document.removeLast(2) }  // its checksum is made over the damaged document
        }
        do {
            let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
            #expect(try store.newest(profile: "default").snapshot?.info.generation == 4)
            #expect(throws: SnapshotError.self) { try store.read(profile: "default", generation: 3) }
            // Asked again, the refused generation answers the refusal, not "not found".
            do {
                _ = try store.read(profile: "default", generation: 3)
                Issue.record("the refused generation 3 was read")
            } catch {
                guard case .corrupt(let notice) = error else { throw error }
                #expect(notice.message.contains("generation 3 is refused"), "\(notice.message)")
            }
            let listing = try store.list(profile: "default")
            #expect(listing.snapshots.map(\.generation) == [4, 2, 1])
            #expect(try store.read(profile: "default", generation: 4).layout == sampleLayout(4))
        }
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment))) == bytes, "the segment is left as it was")
        #expect(sandbox.files().contains { $0.hasPrefix("0000000001.journal-") && $0.hasSuffix(".corrupt") })
        let again = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        let reading = try again.newest(profile: "default")
        #expect(reading.snapshot?.info.generation == 4, "a second start resumes the same generation")
        do {
            _ = try again.read(profile: "default", generation: 3)
            Issue.record("the damaged generation 3 was read")
        } catch {
            guard case .corrupt(let notice) = error else { throw error }
            #expect(notice.message.contains("generation 3 is refused") && notice.message.contains("the other records of the segment stay"),
                    "\(notice.message)")
        }
        #expect(try again.newest(profile: "default").snapshot?.info.generation == 4)
    }

    /// A segment no writer makes (a hostile one): records continuing each
    /// other 70 in a row. The walk stops after 64, and the record it
    /// stopped at is refused with every generation whose edits go through it.
    @Test func aChainLongerThanAnyWriterMakesIsDamage() throws {
        let sandbox = try Sandbox("journal-chain-hostile")
        _ = try handMadeSegment(sandbox, generations: 2...72) { generation in
            generation == 2 ? .whole : .after(generation: generation - 1, count: 0)
        }
        let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        let reading = try store.newest(profile: "default")
        #expect(reading.snapshot?.info.generation == 6, "generations 7… are refused with the record the walk stopped at")
        #expect(reading.notices.count == 1 && reading.notices[0].message.contains("a chain of more than 64 records"),
                "\(reading.notices.map(\.message))")
    }

    @Test func aFileNeverContinuesAnotherGenerationsEdits() throws {
        let header = SnapshotHeader(profile: "default", generation: 5, revision: 5, time: Date(timeIntervalSince1970: 1_800_000_000),
                                    reason: "setButton", source: nil)
        var cache = EditJSONCache()
        let document = try SnapshotDocument.encode(header, layout: sampleLayout(5), edits: [], cache: &cache,
                                                   form: .after(generation: 4, count: 0))
        #expect(throws: DocumentProblem.self) { try SnapshotDocument.decode(document, profile: "default", generation: 5) }
        let (_, _, edits) = try SnapshotDocument.decodeRecord(document, profile: "default", generation: 5)
        #expect(edits == .after(generation: 4, added: []))
        let later = try SnapshotDocument.encode(header, layout: sampleLayout(5), edits: [], cache: &cache,
                                                form: .after(generation: 5, count: 0))
        #expect(throws: DocumentProblem.self) { try SnapshotDocument.decodeRecord(later, profile: "default", generation: 5) }
    }
}

/// A segment after generation 1's file whose records no store wrote: a
/// document of `sampleLayout(generation)` each, in `form`, changed by `damage`
/// before its checksum is made. Returns the segment's path and bytes.
private func handMadeSegment(_ sandbox: Sandbox, generations: ClosedRange<Int>,
                             form: (Int) -> SnapshotDocument.EditsForm,
                             damage: (Int, inout [UInt8]) -> Void = { _, _ in }) throws -> (String, [UInt8]) {
    do { _ = try journaled(sandbox, settings: JournalSettings(preallocation: 0)) }
    let segment = sandbox.folder() + "/0000000001.journal"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
    let header = try JournalFormat.decodeHeader(bytes[...])
    var cache = EditJSONCache()
    for generation in generations {
        var document = try SnapshotDocument.encode(
            SnapshotHeader(profile: "default", generation: generation, revision: generation, time: Date(timeIntervalSince1970: 1_800_000_000),
                           reason: "setButton", source: nil),
            layout: sampleLayout(generation), edits: [], cache: &cache, form: form(generation))
        damage(generation, &document)
        JournalFormat.appendRecord(generation: generation, payload: document, header: header, to: &bytes)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: segment))
    return (segment, bytes)
}
