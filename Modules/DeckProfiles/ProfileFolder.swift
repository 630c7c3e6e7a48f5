import DeckModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A layouts folder: one profile per `*.yaml` or `*.yml` file (PROFILE.md).
///
/// Hidden files (a leading `.`, as editors' swap files have) are not profiles.
public struct ProfileFolder: Hashable, Sendable {
    /// The folder's path, as given.
    public let path: String

    /// The largest layout, as JSON bytes, a profile may have; nil: any. The
    /// host passes the bound edits have (`maxLayoutBytes`): a layout larger
    /// than a client's output queue closed every client on its broadcast.
    public let maxLayoutBytes: Int?

    /// A folder at `path` (nothing is read until asked).
    public init(path: String, maxLayoutBytes: Int? = nil) {
        self.path = path
        self.maxLayoutBytes = maxLayoutBytes
    }

    /// The path of a file in the folder.
    public func path(of file: String) -> String {
        path.hasSuffix("/") ? path + file : path + "/" + file
    }

    /// The profile files' names (`default.yaml`), sorted.
    public func fileNames() throws(DeckProfilesError) -> [String] {
        guard let directory = opendir(path) else {
            throw .unreadableFolder(path: path, reason: String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if Self.isProfileFileName(name) { names.append(name) }
        }
        return names.sorted()
    }

    /// True for `*.yaml` and `*.yml` names that are not hidden.
    public static func isProfileFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && (name.hasSuffix(".yaml") || name.hasSuffix(".yml"))
    }

    /// Fingerprints of every profile file as it is now, sorted by file name.
    /// Compare with an earlier list through ``FolderChanges`` to learn what changed.
    ///
    /// A file that vanishes or cannot be read between listing and reading is
    /// left out (so it reads as removed, and its problem shows on the next scan).
    public func fingerprints() throws(DeckProfilesError) -> [FileFingerprint] {
        try fileNames().compactMap { name in
            (try? FileBytes.read(path(of: name), maxBytes: DeckProfile.maximumFileBytes))
                .map { FileFingerprint(file: name, contents: $0) }
        }
    }

    /// Reads and checks every profile file.
    ///
    /// - Parameter previous: an earlier scan of this folder; files whose
    ///   fingerprint is unchanged reuse its result instead of being parsed again.
    /// - Returns: the valid profiles sorted by name, and every problem: each
    ///   invalid file's, and one for each file whose profile name an earlier
    ///   file (by file name) already has.
    public func scan(reusing previous: ProfileCatalog? = nil) throws(DeckProfilesError) -> ProfileCatalog {
        // Without a way to give up, the scan always finishes.
        guard let catalog = try scan(reusing: previous, giveUpWhen: { false }) else {
            throw .unreadableFolder(path: path, reason: "the scan stopped before its end")
        }
        return catalog
    }

    /// ``scan(reusing:)`` that gives up, returning nil, once `superseded`
    /// says so at a safe point: between files, and every few thousand YAML
    /// events within one (so a newer save need not wait for a huge file).
    /// `parsing` hears of each file read that is about to be parsed, with its
    /// size (the host's debug log: which file a slow scan is busy with).
    package func scan(reusing previous: ProfileCatalog?,
                      giveUpWhen superseded: @escaping @Sendable () -> Bool,
                      parsing: (_ file: String, _ bytes: Int) -> Void = { _, _ in }) throws(DeckProfilesError) -> ProfileCatalog? {
        let reusable = (previous?.files ?? []).filter(\.wasRead).map { ($0.fingerprint, $0) }
        let earlier = Dictionary(reusable, uniquingKeysWith: { first, _ in first })
        var files: [ProfileCatalog.File] = []
        for name in try fileNames() {
            if superseded() { return nil }
            let filePath = path(of: name)
            let bytes: [UInt8]
            do {
                bytes = try FileBytes.read(filePath, maxBytes: DeckProfile.maximumFileBytes)
            } catch {
                let problem = FileProblem.unreadable(filePath, reason: error.reason)
                files.append(ProfileCatalog.File(path: filePath, fingerprint: FileFingerprint(file: name, crc32: 0, bytes: 0),
                                                 profile: nil, problems: [problem], nameMark: nil, wasRead: false,
                                                 settingsSites: []))
                continue
            }
            let fingerprint = FileFingerprint(file: name, contents: bytes)
            if let known = earlier[fingerprint], known.path == filePath {
                files.append(known)
                continue
            }
            parsing(name, bytes.count)
            guard var outcome = DeckProfile.read(bytes, file: filePath, giveUpWhen: superseded) else { return nil }
            if let profile = outcome.profile, let maxLayoutBytes,
               let problem = FileProblem.tooBigToSend(profile, file: filePath, maxLayoutBytes: maxLayoutBytes) {
                outcome = (nil, [problem], outcome.nameMark, outcome.sites)
            }
            files.append(ProfileCatalog.File(path: filePath, fingerprint: fingerprint, profile: outcome.profile,
                                             problems: outcome.problems, nameMark: outcome.nameMark, wasRead: true,
                                             settingsSites: outcome.sites))
        }
        return ProfileCatalog(folder: path, files: files)
    }

    /// Loads the profile called `name` (its `name:` key, or its file stem).
    ///
    /// - Throws: `notFound` when no valid profile has that name; `invalid`
    ///   with the file's problems when the file that would hold it is broken.
    public func load(named name: String) throws(DeckProfilesError) -> ProfileFile {
        let catalog = try scan()
        if let file = catalog.profile(named: name) { return file }
        let broken = catalog.files.filter { $0.profile == nil && DeckProfile.stem(of: $0.fingerprint.file) == name }
        if !broken.isEmpty { throw .invalid(broken.flatMap(\.problems)) }
        throw .notFound(profile: name, folder: path, available: catalog.names)
    }
}
