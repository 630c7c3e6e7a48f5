/// What the bytes of one snapshot file say, decided without the disk: the
/// verdict ``SnapshotStore/newest(profile:)`` and
/// ``SnapshotStore/read(profile:generation:)`` reach for each file they load,
/// and the one the snapshot fuzz target drives directly (docs/reliability.md).
package enum SnapshotFileVerdict {
    case intact(Snapshot)
    /// The file's fault; the reason is the tail of a notice sentence.
    case damaged(String)
}

extension SnapshotStore {
    /// Inflates (checking gzip's CRC-32 and length) and decodes a whole file
    /// found as `profile`'s generation `generation`.
    ///
    /// - Throws: only what is the machine's fault (zlib out of memory).
    package static func verdict(onFile bytes: [UInt8], profile: String,
                                generation: Int) throws(SnapshotError) -> SnapshotFileVerdict {
        let json: [UInt8]
        do throws(GunzipProblem) {
            json = try ZlibCodec.gunzip(bytes, limit: documentLimit)
        } catch {
            switch error {
            case .damaged(let reason): return .damaged(reason)
            case .resource(let reason): throw .compression(reason)
            }
        }
        return verdict(onDocument: json, bytes: bytes.count, profile: profile, generation: generation)
    }

    /// The same for a journal record's payload: the JSON document as it is
    /// (a version-2 record) or gzipped as a file (``JournalPayload``).
    static func verdict(onRecord payload: [UInt8], profile: String,
                        generation: Int) throws(SnapshotError) -> SnapshotFileVerdict {
        guard JournalPayload.isRaw(payload) else { return try verdict(onFile: payload, profile: profile, generation: generation) }
        guard payload.count <= documentLimit else { return .damaged("its document is larger than \(documentLimit >> 20) MiB") }
        return verdict(onDocument: payload, bytes: payload.count, profile: profile, generation: generation)
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
