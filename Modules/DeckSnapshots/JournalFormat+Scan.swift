import Glibc

/// Where a scan gets a segment's bytes from: the whole file in memory (tests,
/// small files) or read through a small reused window (recovery). Reading a
/// 67 MB segment into one fresh array cost more than checking it: the kernel
/// zero-fills and maps every page of the new buffer (docs/performance.md,
/// "Issue 28"); a 1 MiB window stays in cache and is mapped once.
protocol JournalBytes {
    /// `Never` for bytes in memory, ``SnapshotError`` for a file.
    associatedtype Failure: Error
    /// The segment's length in bytes.
    var count: Int { get }
    /// Calls `body` with `count` (≤ 1 MiB) bytes from `offset`; `offset + count` must be within the segment.
    mutating func with<T>(_ offset: Int, _ count: Int, _ body: (UnsafeRawBufferPointer) -> T) throws(Failure) -> T
}

extension JournalBytes {
    /// The offset of the first byte in `range` that is not zero; nil when all are.
    mutating func firstNonZero(_ range: Range<Int>) throws(Failure) -> Int? {
        var at = range.lowerBound
        while at < range.upperBound {
            let step = min(range.upperBound - at, JournalFileBytes.window)
            if let found = try with(at, step, { raw in raw.firstIndex { $0 != 0 } }) { return at + found }
            at += step
        }
        return nil
    }

    /// The record checksum of a segment of format `version` over `range`, continuing `seed`, a window at a time.
    mutating func checksum(_ range: Range<Int>, seed: UInt32, version: UInt32) throws(Failure) -> UInt32 {
        var crc = seed
        var at = range.lowerBound
        while at < range.upperBound {
            let step = min(range.upperBound - at, JournalFileBytes.window)
            crc = try with(at, step) { JournalFormat.recordChecksum($0, seed: crc, version: version) }
            at += step
        }
        return crc
    }
}

/// A whole segment already in memory.
struct JournalMemoryBytes: JournalBytes {
    typealias Failure = Never
    let bytes: [UInt8]
    var count: Int { bytes.count }

    func with<T>(_ offset: Int, _ count: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
    }
}

/// A segment read forward through one reused window with `pread`.
struct JournalFileBytes: JournalBytes {
    static let window = 1 << 20
    let descriptor: Int32
    let path: String
    let count: Int
    private var buffer = [UInt8](repeating: 0, count: 2 * window)
    private var start = 0
    private var filled = 0

    init(descriptor: Int32, path: String, count: Int) {
        self.descriptor = descriptor
        self.path = path
        self.count = count
    }

    mutating func with<T>(_ offset: Int, _ count: Int, _ body: (UnsafeRawBufferPointer) -> T) throws(SnapshotError) -> T {
        if offset < start || offset + count > start + filled { try fill(from: offset, atLeast: count) }
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[(offset - start)..<(offset - start + count)])) }
    }

    /// Reads from `offset` until at least `atLeast` bytes are in (a window and a bit: the buffer is two windows).
    private mutating func fill(from offset: Int, atLeast wanted: Int) throws(SnapshotError) {
        start = offset
        filled = 0
        let goal = min(buffer.count, self.count - offset)
        var failure: Int32 = 0
        let fd = descriptor
        buffer.withUnsafeMutableBytes { raw in
            while filled < goal {
                let result = pread(fd, raw.baseAddress! + filled, goal - filled, off_t(offset + filled))
                if result < 0 && errno == EINTR { continue }
                if result < 0 { failure = errno; return }
                if result == 0 { return }
                filled += result
            }
        }
        if failure != 0 { throw .system(operation: "read", path: path, code: failure) }
        // Shorter than fstat said: the file shrank under us (not ours to do while we hold the folder's lock).
        guard filled >= wanted else { throw .system(operation: "read", path: path, code: EIO) }
    }
}

extension JournalFormat {
    /// ``scan(_:header:limit:)`` over any ``JournalBytes``: the same checks, in the same order.
    static func scan<Bytes: JournalBytes>(_ bytes: inout Bytes, header: FileHeader,
                                          limit: Int) throws(Bytes.Failure) -> Scan {
        var records: [Record] = []
        var offset = fileHeaderSize
        var previous = Int(clamping: header.base)
        let size = bytes.count
        while offset < size {
            let left = size - offset
            // Version 3: a segment is made longer than its records, with zeros
            // ahead of them (an append then overwrites blocks that exist), so a
            // zero record header is the end, after which only zeros may follow.
            if header.version >= 3, try bytes.firstNonZero(offset..<min(size, offset + recordHeaderSize)) == nil {
                if let stray = try bytes.firstNonZero(offset..<size) {
                    return Scan(records: records, end: offset,
                                problem: "bytes other than zero after its last record (the first at byte offset \(stray))")
                }
                return Scan(records: records, end: offset, problem: nil)
            }
            guard left >= recordHeaderSize else {
                return Scan(records: records, end: offset, problem: "an incomplete record header (\(left) bytes)")
            }
            let head = try bytes.with(offset, recordHeaderSize) { raw in
                (length: Int(load32(raw, 0)), generation: Int(clamping: load64(raw, 4)), salt1: load32(raw, 12),
                 salt2: load32(raw, 16), checksum: load32(raw, 20),
                 seed: recordChecksum(UnsafeRawBufferPointer(rebasing: raw[0..<20]), seed: 0, version: header.version))
            }
            guard head.salt1 == header.salt1, head.salt2 == header.salt2 else {
                return Scan(records: records, end: offset, problem: "a record whose salts are not this file's")
            }
            guard head.length <= limit else {
                return Scan(records: records, end: offset, problem: "a record of \(head.length) bytes, more than \(limit >> 20) MiB")
            }
            guard head.length <= left - recordHeaderSize else {
                return Scan(records: records, end: offset,
                            problem: "an incomplete record (\(left - recordHeaderSize) of its \(head.length) bytes)")
            }
            let payload = offset + recordHeaderSize
            guard try bytes.checksum(payload..<payload + head.length, seed: head.seed, version: header.version) == head.checksum else {
                return Scan(records: records, end: offset, problem: "a record whose checksum does not match")
            }
            guard head.generation > previous, head.generation <= maximumGeneration else {
                return Scan(records: records, end: offset,
                            problem: "a record of generation \(head.generation) after generation \(previous)")
            }
            records.append(Record(generation: head.generation, offset: payload, length: head.length))
            previous = head.generation
            offset = payload + head.length
        }
        return Scan(records: records, end: offset, problem: nil)
    }

    private static func load32(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    private static func load64(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
}
