import Glibc

/// Everything that can go wrong in the snapshot store, as a sentence a person can act on.
public enum SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed. `operation` says what the store was doing ("write",
    /// "flush", "rename"…), `path` where, `code` is the `errno` value.
    case system(operation: String, path: String, code: Int32)
    /// `write` accepted fewer bytes than asked and then none at all.
    case shortWrite(path: String, written: Int, expected: Int)
    /// Another process (or another store in this process) holds the state folder.
    case stateInUse(path: String)
    /// A profile name that cannot become a folder name (empty, or too long once encoded).
    case invalidProfileName(name: String, reason: String)
    /// A `keep` count below 1: the newest generation must always stay.
    case invalidKeep(Int)
    /// A snapshot entry the store refuses to write (a negative revision, an empty reason…).
    case invalidEntry(String)
    /// No snapshot file with that generation exists for the profile.
    case notFound(profile: String, generation: Int)
    /// The file exists but is damaged; it has been set aside. The notice says how and where.
    case corrupt(SnapshotNotice)
    /// zlib refused to start or finish (out of memory, usually).
    case compression(String)
    /// The layout could not be turned into JSON.
    case encoding(String)
    /// The last-profile marker exists but cannot be understood.
    case invalidMarker(path: String, reason: String)
    /// A journal segment written in a newer format than this deckd reads.
    case newerJournal(path: String, version: Int)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case let .system(operation, path, code):
            return "could not \(operation) \(path): \(Self.explain(code))"
        case let .shortWrite(path, written, expected):
            return "could not write \(path): only \(written) of \(expected) bytes were written (is the disk full?)"
        case let .stateInUse(path):
            return "the state folder \(path) is in use by another deckd (or another snapshot store); stop it first or use another --state folder"
        case let .invalidProfileName(name, reason):
            return "profile name \(Self.quoted(name)) cannot be used for snapshots: \(reason)"
        case let .invalidKeep(count):
            return "--keep must be at least 1 (the newest snapshot is always kept), not \(count)"
        case let .invalidEntry(reason):
            return "snapshot not written: \(reason)"
        case let .notFound(profile, generation):
            return "profile \(Self.quoted(profile)) has no snapshot generation \(generation); 'deckctl snapshots' lists the ones kept"
        case let .corrupt(notice):
            return notice.message
        case let .compression(reason):
            return "could not compress or decompress a snapshot: \(reason)"
        case let .encoding(reason):
            return "could not encode the layout as JSON: \(reason)"
        case let .newerJournal(path, version):
            return "the snapshot journal \(path) is in format \(version), newer than the format \(JournalFormat.version) "
                + "this deckd reads; run the deckd that wrote it, or move the file away to start from the snapshots before it"
        case let .invalidMarker(path, reason):
            return "the last-profile marker \(path) is unreadable (\(reason)); delete it to start from the default profile"
        }
    }

    /// `strerror` text plus the symbolic name for the errors people meet most,
    /// so "No space left on device (ENOSPC)" is searchable.
    static func explain(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        let names: [Int32: String] = [
            ENOSPC: "ENOSPC", EACCES: "EACCES", EPERM: "EPERM", EIO: "EIO", EROFS: "EROFS",
            EDQUOT: "EDQUOT", ENOENT: "ENOENT", EFBIG: "EFBIG", ENOTDIR: "ENOTDIR", EEXIST: "EEXIST",
        ]
        return names[code].map { "\(text) (\($0))" } ?? "\(text) (errno \(code))"
    }

    /// A name in single quotes with control characters escaped, so a hostile
    /// name cannot forge extra log lines.
    static func quoted(_ name: String) -> String {
        var out = "'"
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "'" || scalar == "\\" {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
