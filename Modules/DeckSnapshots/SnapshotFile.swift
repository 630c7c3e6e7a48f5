/// What the bytes of one snapshot file say, decided without the disk: the
/// verdict ``SnapshotStore/newest(profile:)`` and
/// ``SnapshotStore/read(profile:generation:)`` reach for each file they load,
/// and the one the snapshot fuzz target drives directly (docs/reliability.md).
package enum SnapshotFileVerdict {
    case intact(Snapshot)
    /// The file's fault; the reason is the tail of a notice sentence.
    case damaged(String)
}

/// What one journal record's payload says: a file's verdicts, and a
/// version-3 record whose edits continue an earlier record's.
enum RecordVerdict {
    case intact(Snapshot)
    /// Intact; its edits are generation `generation`'s, then the snapshot's own `edits`.
    case editsAfter(Snapshot, generation: Int)
    case damaged(String)
}

extension SnapshotStore {
    /// Inflates (checking gzip's CRC-32 and length) and decodes a whole file
    /// found as `profile`'s generation `generation`.
    ///
    /// - Throws: only what is the machine's fault (zlib out of memory).
    package static func verdict(onFile bytes: [UInt8], profile: String,
                                generation: Int) throws(SnapshotError) -> SnapshotFileVerdict {
        switch try inflate(bytes) {
        case .success(let json): return verdict(onDocument: json, bytes: bytes.count, profile: profile, generation: generation)
        case .failure(let damage): return .damaged(damage.reason)
        }
    }

    /// A gzip member's inflated bytes (gzip's CRC-32 and length checked), or
    /// why it is damaged; throws only what is the machine's fault.
    private static func inflate(_ bytes: [UInt8]) throws(SnapshotError) -> Result<[UInt8], DocumentProblem> {
        do throws(GunzipProblem) {
            return .success(try ZlibCodec.gunzip(bytes, limit: documentLimit))
        } catch {
            switch error {
            case .damaged(let reason): return .failure(DocumentProblem(reason: reason))
            case .resource(let reason): throw .compression(reason)
            }
        }
    }

    /// The same for a journal record's payload: the JSON document as it is
    /// (a version-2 or -3 record) or gzipped as a file (``JournalPayload``);
    /// a version-3 record's edits may continue an earlier record's.
    static func verdict(onRecord payload: [UInt8], profile: String,
                        generation: Int) throws(SnapshotError) -> RecordVerdict {
        let json: [UInt8]
        if JournalPayload.isRaw(payload) {
            guard payload.count <= documentLimit else { return .damaged("its document is larger than \(documentLimit >> 20) MiB") }
            json = payload
        } else {
            switch try inflate(payload) {
            case .success(let inflated): json = inflated
            case .failure(let damage): return .damaged(damage.reason)
            }
        }
        do throws(DocumentProblem) {
            let (header, layout, edits) = try SnapshotDocument.decodeRecord(json, profile: profile, generation: generation)
            switch edits {
            case .whole(let edits):
                return .intact(Snapshot(info: header.info(bytes: payload.count), layout: layout, edits: edits))
            case let .after(earlier, added):
                return .editsAfter(Snapshot(info: header.info(bytes: payload.count), layout: layout, edits: added), generation: earlier)
            }
        } catch {
            return .damaged(error.reason)
        }
    }

    /// Decodes a whole document; `bytes` is its size on disk.
    private static func verdict(onDocument json: [UInt8], bytes: Int, profile: String,
                                generation: Int) -> SnapshotFileVerdict {
        do throws(DocumentProblem) {
            let (header, layout, edits) = try SnapshotDocument.decode(json, profile: profile, generation: generation)
            return .intact(Snapshot(info: header.info(bytes: bytes), layout: layout, edits: edits))
        } catch {
            return .damaged(error.reason)
        }
    }

    /// The file the store would write for `snapshot` (its JSON document, gzipped).
    package static func fileBytes(of snapshot: Snapshot) throws(SnapshotError) -> [UInt8] {
        let info = snapshot.info
        let header = SnapshotHeader(profile: info.profile, generation: info.generation, revision: info.revision,
                                    time: info.time, reason: info.reason, source: info.source)
        return try fileBytes(document: SnapshotDocument.encode(header, layout: snapshot.layout, edits: snapshot.edits ?? []))
    }

    /// Any document bytes gzipped as the store gzips a snapshot, with a correct CRC-32.
    package static func fileBytes(document json: [UInt8]) throws(SnapshotError) -> [UInt8] {
        try ZlibCodec.gzip(json)
    }
}
