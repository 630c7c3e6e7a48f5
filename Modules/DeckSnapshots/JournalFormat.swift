/// The byte layout of a journal segment (docs/snapshots.md, "The journal"):
/// a 32-byte file header, then records of a 24-byte header and a payload —
/// the generation's snapshot document, as it is (version 2, up to
/// ``JournalPayload/rawLimit``) or gzipped exactly as its `.json.gz` file
/// would be (version 1; larger documents in version 2). All integers are
/// big-endian. Nothing here touches the disk.
package enum JournalFormat {
    /// `DECKJRNL`: what a segment starts with.
    static let magic: [UInt8] = Array("DECKJRNL".utf8)
    /// The format this store writes and the newest it reads. Version 3's
    /// records may carry only the edits they add to the record before them
    /// (docs/snapshots.md, "Records that add edits").
    static let version: UInt32 = 3
    /// The oldest format it still reads (and appends to, in that format, until the segment's checkpoint).
    static let oldestVersion: UInt32 = 1
    package static let fileHeaderSize = 32
    package static let recordHeaderSize = 24
    /// `.journal`: a segment's file name is its base generation, zero-padded, and this.
    static let suffix = ".journal"
    /// The largest generation a segment may name (18 digits, as file names):
    /// a hostile file's huge number would otherwise overflow the next one.
    static let maximumGeneration = 999_999_999_999_999_999

    /// A segment's header: format, salts, and the generation its records follow.
    package struct FileHeader: Equatable {
        package var version: UInt32
        package var salt1: UInt32
        package var salt2: UInt32
        /// The generation of the snapshot file the records follow (0: none).
        package var base: UInt64

        /// A header of `version` (for a fuzzer or a test that writes segments by hand).
        package static func of(version: UInt32, salts: (UInt32, UInt32), base: UInt64) -> FileHeader {
            FileHeader(version: version, salt1: salts.0, salt2: salts.1, base: base)
        }

        /// magic(8) version(4) salt1(4) salt2(4) base(8) crc32 of the 28 bytes before(4).
        package func encoded() -> [UInt8] {
            var bytes = magic
            append(version, to: &bytes)
            append(salt1, to: &bytes)
            append(salt2, to: &bytes)
            append(base, to: &bytes)
            append(crc(bytes), to: &bytes)
            return bytes
        }
    }

    /// Why a segment's header cannot be used.
    package enum HeaderProblem: Error, Equatable {
        /// The file is not a journal, or its header is damaged.
        case damaged(String)
        /// A journal written by a newer format than this store reads.
        case newer(UInt32)
    }

    package static func decodeHeader(_ bytes: ArraySlice<UInt8>) throws(HeaderProblem) -> FileHeader {
        guard bytes.count >= fileHeaderSize else { throw .damaged("it is shorter than its 32-byte header") }
        let start = bytes.startIndex
        guard bytes[start..<start + 8].elementsEqual(magic) else { throw .damaged("it does not start with DECKJRNL") }
        let header = FileHeader(version: read32(bytes, start + 8), salt1: read32(bytes, start + 12),
                                salt2: read32(bytes, start + 16), base: read64(bytes, start + 20))
        // Only a header whose checksum matches is believed about its version:
        // a flipped bit in it is damage, not a newer deckd. Every format keeps
        // magic, version and this checksum where format 1 has them (docs/snapshots.md).
        guard crc(bytes[start..<start + 28]) == read32(bytes, start + 28) else {
            throw .damaged("its header checksum does not match")
        }
        if header.version > version { throw .newer(header.version) }
        guard header.version >= oldestVersion else { throw .damaged("its format version is \(header.version)") }
        guard header.base <= UInt64(maximumGeneration) else { throw .damaged("its base generation \(header.base) is too large") }
        return header
    }

    /// length(4) generation(8) salt1(4) salt2(4) checksum of those 20 bytes and the payload(4), then the payload.
    package static func appendRecord(generation: Int, payload: [UInt8], header: FileHeader, to bytes: inout [UInt8]) {
        let start = bytes.count
        append(UInt32(payload.count), to: &bytes)
        append(UInt64(generation), to: &bytes)
        append(header.salt1, to: &bytes)
        append(header.salt2, to: &bytes)
        let checksum = payload.withUnsafeBytes { body in
            bytes[start...].withUnsafeBytes { head in
                recordChecksum(body, seed: recordChecksum(head, seed: 0, version: header.version), version: header.version)
            }
        }
        append(checksum, to: &bytes)
        bytes += payload
    }

    /// One record found by ``scan(_:header:limit:)``.
    package struct Record: Equatable {
        package var generation: Int
        /// Where its payload starts in the file, and its length.
        package var offset: Int
        package var length: Int
    }

    /// What a scan of a whole segment found.
    package struct Scan: Equatable {
        package var records: [Record]
        /// Where the good records end: the file's length when nothing is
        /// wrong, or (version 3) where the zeros after them begin.
        package var end: Int
        /// Why the bytes from `end` on were refused; nil when there are none.
        package var problem: String?
    }

    /// Every whole, intact record from the start, in order; stops at the
    /// first record that is torn, damaged, from another file (salts), out of
    /// order, or larger than `limit`: that one and everything after it are refused.
    package static func scan(_ bytes: [UInt8], header: FileHeader, limit: Int) -> Scan {
        var memory = JournalMemoryBytes(bytes: bytes)
        return scan(&memory, header: header, limit: limit)
    }

    /// `0000000041.journal` → 41.
    static func base(ofFileName name: String) -> Int? {
        guard name.hasSuffix(suffix) else { return nil }
        let digits = name.dropLast(suffix.count)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    package static func fileName(base: Int) -> String {
        let digits = String(base)
        return String(repeating: "0", count: max(0, SnapshotStore.generationDigits - digits.count)) + digits + suffix
    }

    /// A record's checksum in a segment of format `version`: zlib's CRC-32
    /// in version 1, CRC-32C in version 2 (``CRC32C``). The file header's
    /// checksum is zlib's CRC-32 in every version.
    static func recordChecksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32, version: UInt32) -> UInt32 {
        version >= 2 ? CRC32C.checksum(bytes, seed: seed) : ZlibCodec.crc32(bytes, seed: seed)
    }

    private static func crc(_ bytes: some Collection<UInt8>) -> UInt32 {
        Array(bytes).withUnsafeBytes { ZlibCodec.crc32($0) }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func read32(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in at..<at + 4 { value = value << 8 | UInt32(bytes[index]) }
        return value
    }

    static func read64(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in at..<at + 8 { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
