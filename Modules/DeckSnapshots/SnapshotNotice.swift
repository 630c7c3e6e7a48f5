/// Something the store found and dealt with that a person should hear about:
/// one line for the host's log and `deckctl status`.
public struct SnapshotNotice: Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing happened.
    public enum Kind: String, Hashable, Sendable {
        /// A snapshot file was damaged and has been renamed with `.corrupt`.
        case corrupt
        /// A damaged snapshot file could not even be renamed; it was skipped where it is.
        case corruptNotRenamed
        /// Temporary files of an interrupted write were removed when the store opened.
        case leftoverRemoved
        /// Retention could not delete an old generation.
        case retentionFailed
    }

    /// What kind of thing happened.
    public var kind: Kind
    /// The profile concerned, when there is one.
    public var profile: String?
    /// The generation concerned, when there is one.
    public var generation: Int?
    /// The whole sentence, e.g. "snapshot default/0000000042 was corrupt (gzip CRC
    /// mismatch); kept as 0000000042.json.gz.corrupt; resumed generation 41".
    public var message: String

    /// Makes a notice.
    public init(kind: Kind, profile: String?, generation: Int?, message: String) {
        self.kind = kind
        self.profile = profile
        self.generation = generation
        self.message = message
    }

    /// The sentence.
    public var description: String { message }
}
