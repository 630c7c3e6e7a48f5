import DeckModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The profile file a snapshot's layout started from: its name and a content
/// hash, so the host can tell at start whether the file changed since (PROFILE.md §5).
public struct SnapshotSource: Hashable, Sendable {
    /// The file's name inside the layouts folder, e.g. `default.yaml`.
    public var file: String
    /// CRC-32 (zlib's, the one gzip uses) of the file's bytes.
    public var crc32: UInt32
    /// The file's size in bytes.
    public var bytes: Int

    /// Records a source from known figures.
    public init(file: String, crc32: UInt32, bytes: Int) {
        self.file = file
        self.crc32 = crc32
        self.bytes = bytes
    }

    /// Records a source from the file's contents, computing the CRC-32 here.
    public init(file: String, contents: some ContiguousBytes) {
        let (crc, count) = contents.withUnsafeBytes { (ZlibCodec.crc32($0), $0.count) }
        self.init(file: file, crc32: crc, bytes: count)
    }

    /// The CRC as the snapshot file writes it: eight lowercase hex digits.
    public var crc32Hex: String {
        let hex = String(crc32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// What the host hands the store to make one new generation: the live layout
/// after a change and why it changed. The store assigns the generation number.
public struct SnapshotEntry: Sendable {
    /// The profile the layout belongs to (any string; the store makes it a safe folder name).
    public var profile: String
    /// The host's revision of the live layout after this change (PROTOCOL.md §3).
    public var revision: Int
    /// Why the layout changed: `load`, `reload`, `restore`, `useProfile`, or the edit's request type.
    public var reason: String
    /// The profile file the layout started from; nil for a layout no file produced.
    public var source: SnapshotSource?
    /// The layout itself.
    public var layout: DeckLayout
    /// The client edits made since the profile's file was last loaded, the
    /// newest last (this generation's own, if a client's edit made it), each
    /// with what its slots held before: what a rebase replays (PROFILE.md §5).
    public var edits: [DeckEdit]
    /// When the change happened; written in whole seconds, UTC.
    public var time: Date
    /// The layout's JSON when the host has it already (it encodes each
    /// revision once for its broadcasts); used only while it is `layout`'s.
    package var encodedLayout: EncodedLayout?

    /// Describes one change of the live layout.
    public init(profile: String, revision: Int, reason: String, source: SnapshotSource?,
                layout: DeckLayout, edits: [DeckEdit] = [], time: Date = Date()) {
        self.profile = profile
        self.revision = revision
        self.reason = reason
        self.source = source
        self.layout = layout
        self.edits = edits
        self.time = time
    }

    /// Describes one change of the live layout, whose JSON the caller has
    /// already: the store writes those bytes instead of encoding it again.
    package init(profile: String, revision: Int, reason: String, source: SnapshotSource?,
                 layout encoded: EncodedLayout, edits: [DeckEdit] = [], time: Date = Date()) {
        self.init(profile: profile, revision: revision, reason: reason, source: source, layout: encoded.layout,
                  edits: edits, time: time)
        encodedLayout = encoded
    }
}

extension SnapshotEntry: Hashable {
    /// Entries are equal when they describe the same change; the encoded
    /// bytes are a cache of `layout` and do not count.
    public static func == (lhs: SnapshotEntry, rhs: SnapshotEntry) -> Bool {
        lhs.profile == rhs.profile && lhs.revision == rhs.revision && lhs.reason == rhs.reason
            && lhs.source == rhs.source && lhs.layout == rhs.layout && lhs.edits == rhs.edits && lhs.time == rhs.time
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(profile)
        hasher.combine(revision)
        hasher.combine(reason)
        hasher.combine(source)
        hasher.combine(layout)
        hasher.combine(edits)
        hasher.combine(time)
    }
}

/// One generation as a listing shows it: everything in the file but the layout,
/// plus its size on disk.
public struct SnapshotInfo: Hashable, Sendable {
    /// The profile the snapshot belongs to.
    public var profile: String
    /// The generation number: 1, 2, 3… per profile, never reused.
    public var generation: Int
    /// The host's layout revision when it was written.
    public var revision: Int
    /// When it was written, to the second.
    public var time: Date
    /// Why it was written.
    public var reason: String
    /// The profile file it started from, if any.
    public var source: SnapshotSource?
    /// The size of the `.json.gz` file on disk.
    public var bytes: Int

    /// Assembles a listing row.
    public init(profile: String, generation: Int, revision: Int, time: Date, reason: String,
                source: SnapshotSource?, bytes: Int) {
        self.profile = profile
        self.generation = generation
        self.revision = revision
        self.time = time
        self.reason = reason
        self.source = source
        self.bytes = bytes
    }
}

/// A generation read back in full.
public struct Snapshot: Hashable, Sendable {
    /// Its header fields and size.
    public var info: SnapshotInfo
    /// The layout it holds, validated and normalized.
    public var layout: DeckLayout
    /// The edits it records since its file was last loaded; nil for a
    /// snapshot written before generations recorded them (they cannot be
    /// replayed: the host then lets the changed file win, as it did).
    public var edits: [DeckEdit]?

    /// Pairs a header with its layout.
    public init(info: SnapshotInfo, layout: DeckLayout, edits: [DeckEdit]? = nil) {
        self.info = info
        self.layout = layout
        self.edits = edits
    }
}
