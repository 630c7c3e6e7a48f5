import DeckModel
@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// A journal of generations 2…`count` after the file of generation 1, where
/// each record starts in its segment, and where the records end (in version
/// 3, 4 KiB of zeros follow them, as deckd's megabyte does).
private func journalFixture(_ sandbox: Sandbox, count: Int, smallLast: Bool = false, version: UInt32) throws
    -> (segment: String, bytes: [UInt8], starts: [Int], end: Int) {
    do {
        var settings = journalSettings(version: version)
        settings.preallocation = 4096
        let store = try journaled(sandbox, settings: settings)
        // Each generation adds one client edit, as deckd's do: in version 3 every record after the first continues the one before.
        var edits: [DeckEdit] = []
        func entry(_ revision: Int, layout: DeckLayout? = nil) -> SnapshotEntry {
            var entry = sampleEntry(revision)
            let before = sampleLayout(revision - 1)
            entry.layout = layout ?? entry.layout
            edits.append(DeckEdit(kind: .set, slots: [DeckSlot(page: 0, index: 0)], from: before, to: entry.layout))
            entry.edits = edits
            return entry
        }
        // maintain() after each, as deckd's disk thread does: a version-3 segment keeps zeros after its records.
        for revision in 2..<count {
            try store.write(entry(revision))
            store.maintain()
        }
        // A one-button layout keeps the torn test's every-offset loop short.
        try store.write(entry(count, layout: smallLast ? .empty() : nil))
        store.maintain()
    }
    let segment = sandbox.folder() + "/0000000001.journal"
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
    let header = try JournalFormat.decodeHeader(bytes[...])
    #expect(header.version == version)
    let scan = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
    #expect(scan.problem == nil && scan.records.map(\.generation) == Array(2...count))
    let continuing = scan.records.map { bytes[$0.offset..<$0.offset + $0.length].firstRange(of: Array(#","editsAfter":"#.utf8)) != nil }
    #expect(continuing == scan.records.indices.map { version >= 3 && $0 > 0 }, "version \(version): \(continuing)")
    #expect((scan.end < bytes.count) == (version >= 3) && bytes[scan.end...].allSatisfy { $0 == 0 }, "version \(version)")
    return (segment, bytes, scan.records.map { $0.offset - JournalFormat.recordHeaderSize }, scan.end)
}

/// Puts `bytes` back as the segment and removes what earlier rounds set aside.
private func reset(_ sandbox: Sandbox, _ segment: String, _ bytes: ArraySlice<UInt8>) throws {
    for name in sandbox.files() where name.hasSuffix(".corrupt") { unlink(sandbox.folder() + "/" + name) }
    try Data(bytes).write(to: URL(fileURLWithPath: segment))
}

/// Every fault test runs against segments of each format this store reads:
/// version 3 (what it writes: each record after the first continues the one
/// before, as the sample entries' edits extend each other), version 2 and
/// version 1 (what earlier deckds wrote).
private let formats: [UInt32] = [3, 2, 1]

@Suite("The journal's faults: torn tails, flipped bits, a newer format, a full disk, kill -9")
struct JournalFaultTests {
    @Test(arguments: formats)
    func aTornLastRecordIsCutAtEveryByteOffsetAndEveryEarlierRecordIsKept(version: UInt32) throws {
        let sandbox = try Sandbox("journal-torn")
        let (segment, bytes, starts, end) = try journalFixture(sandbox, count: 6, smallLast: true, version: version)
        let last = try #require(starts.last)
        for cut in last..<end {
            try reset(sandbox, segment, bytes[..<cut])
            let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
            let reading = try store.newest(profile: "default")
            #expect(reading.snapshot?.info.generation == 5, "cut at \(cut)")
            #expect(reading.snapshot?.layout == sampleLayout(5), "cut at \(cut)")
            if version >= 3 && bytes[last..<cut].allSatisfy({ $0 == 0 }) {
                // The first bytes of a record header (its length's high bytes) can be zero: as the zeros after the records, a clean end.
                #expect(reading.notices.isEmpty, "cut at \(cut): \(reading.notices)")
            } else if cut > last {
                #expect(reading.notices.count == 1 && reading.notices[0].message.contains("byte offset \(last)"),
                        "cut at \(cut): \(reading.notices)")
            } else {
                #expect(reading.notices.isEmpty, "cut at a record's start is a clean end")
            }
            #expect(try store.list(profile: "default").snapshots.map(\.generation) == [5, 4, 3, 2, 1])
            // The cut is made on disk: the next record follows the last good one.
            #expect(try store.write(sampleEntry(6)).written.map(\.generation) == [6], "cut at \(cut)")
            #expect(try store.read(profile: "default", generation: 6).layout == sampleLayout(6))
        }
        // Version 3: a cut anywhere in the zeros after the records is a clean end.
        for cut in stride(from: end, through: bytes.count, by: 509) where end < bytes.count {
            try reset(sandbox, segment, bytes[..<cut])
            let reading = try sandbox.open(keep: 1_000_000, journal: JournalSettings()).newest(profile: "default")
            #expect(reading.snapshot?.info.generation == 6 && reading.notices.isEmpty, "cut at \(cut)")
        }
    }

    @Test(arguments: formats)
    func aFlippedBitAnywhereRefusesItsRecordAndEverythingAfterNamingTheOffset(version: UInt32) throws {
        let sandbox = try Sandbox("journal-bit")
        let (segment, bytes, starts, end) = try journalFixture(sandbox, count: 6, version: version)
        var random = SeededGenerator(seed: 0xB17F_11B5)
        // Every byte of the header and of each record's header, a sample of payload bytes, and (version 3) of the zeros after.
        var positions = Array(0..<JournalFormat.fileHeaderSize)
        for start in starts { positions += start..<(start + JournalFormat.recordHeaderSize) }
        positions += stride(from: JournalFormat.fileHeaderSize, to: bytes.count, by: 29)
        for position in Set(positions).sorted() {
            var damaged = bytes
            damaged[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            try reset(sandbox, segment, damaged[...])
            let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
            let reading = try store.newest(profile: "default")
            let listed = try store.list(profile: "default").snapshots.map(\.generation)
            if position < JournalFormat.fileHeaderSize {
                // The header cannot be trusted: the whole segment is set aside, the file before it resumed.
                #expect(reading.snapshot?.info.generation == 1, "byte \(position)")
                #expect(reading.notices.contains { $0.message.contains("was corrupt") }, "byte \(position)")
                #expect(sandbox.files().contains("0000000001.journal.corrupt"))
                continue
            }
            if position >= end {
                // In the zeros after the records: every record stays; the stray byte and what follows are refused from the records' end.
                #expect(reading.snapshot?.info.generation == 6 && listed == Array((1...6).reversed()), "byte \(position)")
                // (Within the first 24 zeros the bytes read as a record header that is not this file's.)
                #expect(reading.notices.count == 1 && reading.notices[0].message.contains("byte offset \(end)")
                        && (position < end + JournalFormat.recordHeaderSize
                            || reading.notices[0].message.contains("the first at byte offset \(position)")), "byte \(position): \(reading.notices)")
                #expect(sandbox.files().contains("0000000001.journal-\(end).corrupt"), "byte \(position)")
                continue
            }
            let record = try #require(starts.lastIndex { $0 <= position })
            let kept = record + 1  // generations 2…record+1 come before the damaged one
            #expect(reading.snapshot?.info.generation == kept, "byte \(position)")
            #expect(listed == Array((1...kept).reversed()), "byte \(position)")
            #expect(reading.notices.count == 1 && reading.notices[0].message.contains("byte offset \(starts[record])"),
                    "byte \(position): \(reading.notices)")
            #expect(sandbox.files().contains("0000000001.journal-\(starts[record]).corrupt"), "byte \(position)")
        }
    }

    /// (A version field that changed without its checksum is a flipped bit: the test above.)
    @Test(arguments: formats)
    func aJournalFromANewerFormatIsRefusedClearlyAndLeftAsItIs(version: UInt32) throws {
        let sandbox = try Sandbox("journal-future")
        let (segment, bytes, _, _) = try journalFixture(sandbox, count: 3, version: version)
        var future = bytes
        future[11] = UInt8(JournalFormat.version + 1)  // the next version
        let crc = future[0..<28].withUnsafeBytes { ZlibCodec.crc32(UnsafeRawBufferPointer(rebasing: $0[...])) }
        for index in 0..<4 { future[28 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index))) }
        try reset(sandbox, segment, future[...])
        let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        #expect {
            _ = try store.newest(profile: "default")
        } throws: { error in
            "\(error)".contains("in format \(JournalFormat.version + 1), newer than the format \(JournalFormat.version) this deckd reads")
                && "\(error)".contains(segment)
        }
        let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        #expect(after == future)
        #expect(store.write([sampleEntry(4)]).failure != nil, "nothing is written over a newer deckd's journal")
    }

    @Test(arguments: formats)
    func aFullDiskMidAppendRefusesTheWriteAndLosesNothingAcknowledged(version: UInt32) throws {
        let sandbox = try Sandbox("journal-full")
        let (segment, bytes, _, end) = try journalFixture(sandbox, count: 3, version: version)
        let helper = try BuiltProducts.path("deck-snapshot-torture")
        // Room for part of the next record only: the append stops mid-record with EFBIG.
        let result = try run(helper, ["fill-journal", sandbox.state, "default", String(bytes.count + 100)])
        #expect(result.status == 0)
        let said = String(decoding: result.output, as: UTF8.self)
        #expect(said.hasPrefix("could not write \(segment)"), "\(said)")
        #expect(said.hasSuffix("File too large (EFBIG)\n"), "\(said)")
        // The partial record was cut again: the segment is its records as before (in version 3 without the zeros the record overwrote).
        let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        #expect(after[...] == bytes[..<end])
        let store = try sandbox.open(keep: 1_000_000, journal: JournalSettings())
        let reading = try store.newest(profile: "default")
        #expect(reading.snapshot?.info.generation == 3 && reading.notices.isEmpty)
        #expect(try store.write(sampleEntry(4)).written.map(\.generation) == [4])
    }
}

@Suite("The journal's scan on hostile bytes")
struct JournalScanTests {
    /// Random segments and random damage never trap; what is kept is always a
    /// run of whole records in increasing order ending at `end`.
    @Test func randomBytesNeverTrapAndOnlyWholeOrderedRecordsAreKept() throws {
        var random = SeededGenerator(seed: 0x5CA7_7E2D)
        let header = JournalFormat.FileHeader(version: 1, salt1: 7, salt2: 9, base: 3)
        for round in 0..<2_000 {
            var bytes = header.encoded()
            for generation in 4..<(4 + Int.random(in: 0...4, using: &random)) {
                let payload = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                JournalFormat.appendRecord(generation: generation, payload: payload, header: header, to: &bytes)
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) where bytes.count > 32 {
                bytes[Int.random(in: 32..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { bytes += (0..<Int.random(in: 0...60, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } }
            let scan = JournalFormat.scan(bytes, header: header, limit: 1 << 20)
            var previous = 3
            var next = JournalFormat.fileHeaderSize
            for record in scan.records {
                #expect(record.generation > previous && record.offset == next + JournalFormat.recordHeaderSize, "round \(round)")
                previous = record.generation
                next = record.offset + record.length
            }
            #expect(scan.end == next && (scan.problem == nil) == (scan.end == bytes.count), "round \(round)")
        }
        // A header naming a huge base generation is damage, not a number to count on from.
        var huge = JournalFormat.FileHeader(version: 1, salt1: 1, salt2: 2, base: UInt64.max).encoded()
        #expect(throws: JournalFormat.HeaderProblem.self) { try JournalFormat.decodeHeader(huge[...]) }
        huge[8] = 0
        #expect(throws: JournalFormat.HeaderProblem.self) { try JournalFormat.decodeHeader(huge[...]) }
    }
}
