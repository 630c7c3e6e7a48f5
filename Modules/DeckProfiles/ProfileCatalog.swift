/// One scan of a layouts folder: every profile file, the valid profiles by
/// name, and every problem, as the host shows them in `status` and `profiles`.
public struct ProfileCatalog: Hashable, Sendable {
    /// One profile file as read.
    public struct File: Hashable, Sendable {
        /// Its path (the folder's path joined with its name).
        public let path: String
        /// Name, CRC-32 and size of what was read (zero for a file that could not be read).
        public let fingerprint: FileFingerprint
        /// The profile, or nil when the file has problems.
        public let profile: DeckProfile?
        /// The file's own problems (not the folder-level ones such as a shared name).
        public let problems: [FileProblem]
        /// Where `name:` is, for a problem about a shared name.
        let nameMark: YAMLMark?
        /// False when the file could not be read (its fingerprint is then a stand-in).
        let wasRead: Bool
        /// Where each plugin button's settings are written, for the check
        /// against the plugins' declarations (empty for an unread file).
        package var settingsSites: [SettingsSite] = []
    }

    /// The folder scanned.
    public let folder: String
    /// Every profile file, sorted by file name.
    public let files: [File]
    /// The valid profiles, one per name, sorted by name. When two files give
    /// the same name, the first by file name keeps it and the other is a problem.
    public let profiles: [ProfileFile]
    /// Every problem: each file's, and one per file whose name is taken.
    /// Sorted by file, then position.
    public let problems: [FileProblem]

    init(folder: String, files: [File]) {
        self.folder = folder
        self.files = files
        var owners: [String: File] = [:]
        var problems: [FileProblem] = []
        for file in files {
            problems += file.problems
            guard let profile = file.profile else { continue }
            if let owner = owners[profile.name] {
                problems.append(.sharedName(profile.name, in: file.path, at: file.nameMark, owner: owner.fingerprint.file))
                continue
            }
            owners[profile.name] = file
        }
        profiles = owners.values
            .compactMap { file in file.profile.map { ProfileFile(path: file.path, fingerprint: file.fingerprint, profile: $0) } }
            .sorted { $0.profile.name < $1.profile.name }
        self.problems = problems.sorted()
    }

    /// The valid profiles' names, sorted.
    public var names: [String] { profiles.map(\.profile.name) }

    /// The fingerprints of every file read, sorted by file name.
    public var fingerprints: [FileFingerprint] { files.map(\.fingerprint) }

    /// The valid profile called `name`.
    public func profile(named name: String) -> ProfileFile? {
        profiles.first { $0.profile.name == name }
    }

    /// What differs between this scan's files and `earlier` fingerprints.
    public func changes(since earlier: [FileFingerprint]) -> FolderChanges {
        FolderChanges(from: earlier, to: fingerprints)
    }
}

/// Which profile files were added, changed or removed between two lists of
/// fingerprints (content CRC-32 and size, not modification times: saving a
/// file unchanged is no change, and a change within the same second is one).
public struct FolderChanges: Hashable, Sendable {
    /// Files in the new list only, sorted.
    public var added: [String]
    /// Files in both whose CRC-32 or size differ, sorted.
    public var changed: [String]
    /// Files in the old list only, sorted.
    public var removed: [String]

    /// True when nothing changed.
    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }

    /// Every file that was added, changed or removed, sorted.
    public var all: [String] { (added + changed + removed).sorted() }

    /// Compares two lists of fingerprints by file name.
    public init(from old: [FileFingerprint], to new: [FileFingerprint]) {
        let before = Dictionary(old.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        added = after.keys.filter { before[$0] == nil }.sorted()
        removed = before.keys.filter { after[$0] == nil }.sorted()
        changed = after.compactMap { name, print in
            before[name].flatMap { $0 == print ? nil : name }
        }.sorted()
    }
}
