import DeckSnapshots

/// Two ways in, chosen by the first byte, so that the fuzzer reaches both the
/// gzip layer and the document inside it:
///
/// - odd: the input is a whole file. Property: the reader accepts it only if
///   its gzip trailer's CRC-32 and length are those of the data it inflates to.
/// - even: the rest is a document, gzipped as the store does (a correct CRC).
///   Properties: an accepted snapshot written back reads back equal, and the
///   same file with its CRC-32 changed is refused.
enum SnapshotFuzz {
    static let profile = "default"
    static let generation = 1

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        if mode & 1 == 1 {
            try checkFile(rest)
        } else {
            try checkDocument(rest)
        }
    }

    private static func verdict(_ file: [UInt8]) throws(FuzzFinding) -> Snapshot? {
        do throws(SnapshotError) {
            switch try SnapshotStore.verdict(onFile: file, profile: profile, generation: generation) {
            case .intact(let snapshot): return snapshot
            case .damaged: return nil
            }
        } catch {
            throw FuzzFinding("reading a snapshot failed as if the machine were at fault: \(error)")
        }
    }

    private static func checkFile(_ file: [UInt8]) throws(FuzzFinding) {
        guard try verdict(file) != nil else { return }
        guard let inflated = GzipCheck.inflate(file) else {
            throw FuzzFinding("the reader accepted a file zlib cannot inflate as one gzip member")
        }
        let trailer = file.suffix(8).map(UInt32.init)
        try require(file.count >= 18, "the reader accepted a file shorter than a gzip header and trailer")
        let crc = trailer[0] | trailer[1] << 8 | trailer[2] << 16 | trailer[3] << 24
        let length = trailer[4] | trailer[5] << 8 | trailer[6] << 16 | trailer[7] << 24
        try require(crc == GzipCheck.crc32(inflated),
                    "the reader accepted a file whose CRC-32 (\(crc)) is not its data's (\(GzipCheck.crc32(inflated)))")
        try require(length == UInt32(truncatingIfNeeded: inflated.count),
                    "the reader accepted a file whose length field (\(length)) is not its data's (\(inflated.count))")
    }

    private static func checkDocument(_ document: [UInt8]) throws(FuzzFinding) {
        let file: [UInt8]
        do throws(SnapshotError) {
            file = try SnapshotStore.fileBytes(document: document)
        } catch {
            throw FuzzFinding("gzip failed: \(error)")
        }
        var damaged = file
        damaged[damaged.count - 8] ^= 0x01
        try require(try verdict(damaged) == nil, "the reader accepted a file whose CRC-32 is wrong")
        guard let snapshot = try verdict(file) else { return }
        let rewritten: [UInt8]
        do throws(SnapshotError) {
            rewritten = try SnapshotStore.fileBytes(of: snapshot)
        } catch {
            throw FuzzFinding("an accepted snapshot cannot be written back: \(error)")
        }
        guard let again = try verdict(rewritten) else {
            throw FuzzFinding("an accepted snapshot, written back, is refused")
        }
        // `bytes` is the file's size, which the two files need not share.
        try require(again.layout == snapshot.layout, "a snapshot's layout changed through write → read")
        var info = again.info
        info.bytes = snapshot.info.bytes
        try require(info == snapshot.info, "a snapshot's header changed through write → read: \(snapshot.info) became \(again.info)")
    }
}
