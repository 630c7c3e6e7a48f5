internal import CCRC32C

/// CRC-32C (Castagnoli: the reflected polynomial 0x82F63B78, iSCSI's and
/// ext4's), the checksum of a version-2 journal record (docs/snapshots.md).
///
/// Why not zlib's CRC-32 as in version 1: zlib 1.2.13 here spends ~6.5
/// instructions a byte on it, and a version-2 record holds its document
/// uncompressed (~14 KB for a small profile), so that would have been ~90 K
/// instructions an edit and most of a 100,000-record recovery; SSE4.2's
/// `crc32` instruction does 8 bytes in one (docs/performance.md, issue 28).
/// Without it (another CPU) a table-driven slice-by-8 gives the same values.
enum CRC32C {
    /// Whether this CPU computes it (SSE4.2), decided once.
    static let hardware = deck_crc32c_hardware() != 0

    /// The checksum of `bytes`, continuing `seed` (0 to start; a previous result to go on).
    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return seed }
        if hardware { return deck_crc32c_update(seed, base.assumingMemoryBound(to: UInt8.self), bytes.count) }
        return software(bytes, seed: seed)
    }

    /// The same without the CPU's instruction (slice-by-8); tests compare the two.
    static func software(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        var at = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { t in
            while count - at >= 8 {
                let one = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)) ^ crc
                let two = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
                crc = t[7 * 256 + Int(one & 0xFF)] ^ t[6 * 256 + Int((one >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((one >> 16) & 0xFF)] ^ t[4 * 256 + Int(one >> 24)]
                    ^ t[3 * 256 + Int(two & 0xFF)] ^ t[2 * 256 + Int((two >> 8) & 0xFF)]
                    ^ t[256 + Int((two >> 16) & 0xFF)] ^ t[Int(two >> 24)]
                at += 8
            }
            while at < count {
                crc = t[Int((crc ^ UInt32(bytes[at])) & 0xFF)] ^ (crc >> 8)
                at += 1
            }
        }
        return ~crc
    }

    /// Eight tables of 256: the byte-at-a-time table, then each one byte further on.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
