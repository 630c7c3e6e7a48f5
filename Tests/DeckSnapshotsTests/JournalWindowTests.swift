@testable import DeckSnapshots
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// Recovery reads a segment through a reused window instead of whole
/// (JournalFileBytes): records that straddle the window's edges, records
/// larger than the window, and damage past the first window must give
/// exactly the scan of the same bytes in memory.
@Suite("The journal's scan through a window equals the scan in memory")
struct JournalWindowTests {
    /// A segment of ~6 window's worth: payload sizes chosen so records cross
    /// every 2 MiB edge, one of them larger than a whole buffer.
    private static let fixture = segment()

    private static func segment() -> (JournalFormat.FileHeader, [UInt8]) {
        let header = JournalFormat.FileHeader(version: 1, salt1: 11, salt2: 13, base: 1)
        var bytes = header.encoded()
        var generation = 2
        for size in [700_000, 900_000, 3 * JournalFileBytes.window, 333_333, 1_048_553, 5, 0, 2_000_001, 250_000] {
            // Not random, but no two windows alike: enough for a checksum to tell a misplaced byte.
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7 ^ generation) }
            JournalFormat.appendRecord(generation: generation, payload: payload, header: header, to: &bytes)
            generation += 1
        }
        return (header, bytes)
    }

    private static func scanFile(_ bytes: [UInt8], header: JournalFormat.FileHeader) throws -> JournalFormat.Scan {
        let folder = try TemporaryDirectory(prefix: "journal-window")
        let path = folder.path + "/0000000001.journal"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { _ = close(descriptor) }
        var file = JournalFileBytes(descriptor: descriptor, path: path, count: bytes.count)
        return try JournalFormat.scan(&file, header: header, limit: 1 << 30)
    }

    @Test func intactSegmentScansTheSame() throws {
        let (header, bytes) = Self.fixture
        let memory = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
        #expect(memory.problem == nil && memory.records.count == 9)
        #expect(try Self.scanFile(bytes, header: header) == memory)
    }

    /// A flipped bit in the first, a middle and the last record, at and
    /// around window edges, and a torn end: the same cut, the same message.
    @Test(arguments: [40, 700_030, 2 * JournalFileBytes.window - 1, 2 * JournalFileBytes.window,
                      4 * JournalFileBytes.window + 17, 7_000_000, -1, -100, -700_000])
    func damageScansTheSame(position: Int) throws {
        let (header, original) = Self.fixture
        var bytes = original
        if position >= 0 { bytes[position] ^= 0x20 } else { bytes.removeLast(-position) }
        let memory = JournalFormat.scan(bytes, header: header, limit: 1 << 30)
        #expect(memory.problem != nil && memory.records.count < 9)
        #expect(try Self.scanFile(bytes, header: header) == memory)
    }

    /// A file that shrinks under the scan is a read error, not records from stale buffer bytes.
    @Test func aFileShorterThanItsSizeIsAnError() throws {
        let (header, bytes) = Self.fixture
        let folder = try TemporaryDirectory(prefix: "journal-window")
        let path = folder.path + "/0000000001.journal"
        try Data(bytes.prefix(3_000_000)).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { _ = close(descriptor) }
        var file = JournalFileBytes(descriptor: descriptor, path: path, count: bytes.count)
        #expect(throws: SnapshotError.self) { try JournalFormat.scan(&file, header: header, limit: 1 << 30) }
    }
}
