/// What a journal record's payload holds (docs/snapshots.md, "Segment format
/// (version 2)"): in a version-2 segment the generation's JSON document as it
/// is, unless it is larger than ``rawLimit``, when it is gzipped as its file
/// would be; in a version-1 segment always gzip. A reader tells the two apart
/// by the first byte: a document starts with `{`, a gzip member with `1f 8b`.
///
/// Why not deflate every record: a small profile's document is ~14 KB (the
/// edits it carries for rebasing around a 1.9 KB layout), and deflating it
/// was about half of deckd's instructions per edit (410 K of 0.86 M,
/// docs/performance.md, issue 28) while its `ok` waited. The record's CRC-32
/// already guards the bytes, which is all gzip's trailer added. Above
/// ``rawLimit`` (a layout of thousands of buttons) the bytes a record costs
/// the disk and the segment matter more than the deflate: a 1.15 MB document
/// would fill a 16 MiB segment in 14 edits.
enum JournalPayload {
    /// The largest document a version-2 record holds as it is.
    static let rawLimit = 64 << 10

    /// The payload for `document` in a segment of format `version`, and
    /// whether it is the JSON as it is.
    static func encode(_ document: [UInt8], version: UInt32,
                       deflater: GzipDeflater) throws(SnapshotError) -> (bytes: [UInt8], raw: Bool) {
        if version >= 2, document.count <= rawLimit { return (document, true) }
        return (try deflater.gzip(document), false)
    }

    /// Whether `payload` is a JSON document rather than a gzip member.
    static func isRaw(_ payload: [UInt8]) -> Bool {
        payload.first == UInt8(ascii: "{")
    }

    /// The bytes before `marker` in the payload's document (a listing's
    /// header); nil when the marker is not in its first `limit` bytes.
    static func prefix(of payload: [UInt8], before marker: [UInt8], limit: Int) throws(GunzipProblem) -> [UInt8]? {
        guard isRaw(payload) else { return try ZlibCodec.gunzipPrefix(payload, before: marker, limit: limit) }
        return payload[..<min(payload.count, limit)].firstRange(of: marker).map { Array(payload[..<$0.lowerBound]) }
    }
}
