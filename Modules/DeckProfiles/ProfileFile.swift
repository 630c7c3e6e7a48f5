/// A profile read from a file, with the fingerprint of the exact bytes it was
/// read from (so the host can tell later whether the file has changed).
public struct ProfileFile: Hashable, Sendable {
    /// The path it was read from.
    public let path: String
    /// Name, CRC-32 and size of the bytes that were parsed.
    public let fingerprint: FileFingerprint
    /// The profile.
    public let profile: DeckProfile

    /// Makes the value; ``load(path:)`` is the usual way.
    public init(path: String, fingerprint: FileFingerprint, profile: DeckProfile) {
        self.path = path
        self.fingerprint = fingerprint
        self.profile = profile
    }

    /// Reads, parses and checks one profile file. Problems name the file by
    /// `path` as given.
    ///
    /// - Throws: `DeckProfilesError.invalid` with every problem; a file that
    ///   cannot be read is one problem at 1:1 saying why.
    public static func load(path: String) throws(DeckProfilesError) -> ProfileFile {
        let bytes = try readProfileBytes(path)
        let profile = try DeckProfile.parse(bytes, file: path)
        return ProfileFile(path: path, fingerprint: FileFingerprint(file: fileName(of: path), contents: bytes), profile: profile)
    }

    /// The file's bytes, or an `invalid` error with one problem at 1:1.
    static func readProfileBytes(_ path: String) throws(DeckProfilesError) -> [UInt8] {
        do {
            return try FileBytes.read(path, maxBytes: DeckProfile.maximumFileBytes)
        } catch {
            throw .invalid([FileProblem.unreadable(path, reason: error.reason)])
        }
    }

    static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
