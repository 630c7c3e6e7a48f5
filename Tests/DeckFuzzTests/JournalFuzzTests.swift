@testable import DeckFuzz
import DeckSnapshots
import Foundation
import Testing

/// The journal target's seeds (Fuzz/Corpus/journal) reach what they are
/// for: records deckd wrote, framed again by the target, are recovered by
/// the store as deckd would recover them, so the fuzzer starts from
/// documents the store reads, not from checksums it refuses.
@Suite struct JournalFuzzTests {
    /// The seed made from deckd's own format-3 segment: a base of 2 and four records.
    static let deckdSeed = "seed-593b5a43723039ca"

    @Test func deckdsRecordsFramedAgainAreRecoveredUpToTheLast() throws {
        let bytes = try [UInt8](Data(contentsOf: CorpusTests.fuzzFolder.appendingPathComponent("Corpus/journal/\(Self.deckdSeed)")))
        #expect(bytes[0] == 0 && bytes[1] % 3 == 2, "a store-mode seed of format 3")
        let base = Int(bytes[2])
        let payloads = JournalFuzz.payloads(bytes.dropFirst(3))
        #expect(payloads.count == 4)
        let segment = JournalFuzz.segment(version: 3, base: base, payloads: payloads)
        let header = try JournalFormat.decodeHeader(segment[...])
        let scan = JournalFormat.scan(segment, header: header, limit: 1 << 20)
        #expect(scan.problem == nil && scan.records.map(\.generation) == Array((base + 1)...(base + 4)))

        let state = try StateFolder()
        defer { state.remove() }
        try state.write(segment, as: "snapshots/default/" + JournalFormat.fileName(base: base))
        let resumed = try JournalFuzz.recover(state.path)
        #expect(resumed?.info.generation == base + 4)
        // Each of deckd's edits swapped A and B; the last of five leaves them swapped.
        #expect(resumed?.layout.pages.first?.buttons.compactMap { $0?.name } == ["B", "A", "C", "D"])
        try JournalFuzz.check(bytes)
    }

    @Test func aRecordCutShortLeavesTheOnesBeforeIt() throws {
        let bytes = try [UInt8](Data(contentsOf: CorpusTests.fuzzFolder.appendingPathComponent("Corpus/journal/\(Self.deckdSeed)")))
        let base = Int(bytes[2])
        let payloads = JournalFuzz.payloads(bytes.dropFirst(3))
        var segment = JournalFuzz.segment(version: 3, base: base, payloads: payloads)
        segment.removeLast(5)
        let state = try StateFolder()
        defer { state.remove() }
        try state.write(segment, as: "snapshots/default/" + JournalFormat.fileName(base: base))
        #expect(try JournalFuzz.recover(state.path)?.info.generation == base + 3)
    }
}
