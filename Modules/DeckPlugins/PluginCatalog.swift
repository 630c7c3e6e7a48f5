import DeckProfiles
import Glibc

/// The plugins found in one or more plugins folders (PLUGINS.md §1).
///
/// Each folder's subfolders holding a `plugin.yaml` are plugins, visited in
/// name order (hidden ones skipped), folders in the order given. A broken
/// manifest makes that plugin unavailable and the others still work; when
/// two manifests claim one id, the first found keeps it and the other is a
/// problem at its `id:`.
public struct PluginCatalog: Hashable, Sendable {
    /// The usable plugins, in the order found.
    public private(set) var manifests: [PluginManifest] = []
    /// Every problem of every manifest, sorted.
    public private(set) var problems: [FileProblem] = []
    /// Plugins whose manifest is broken: their id (the folder's name when the
    /// id itself could not be read) and the first problem.
    public private(set) var unavailable: [Unavailable] = []

    /// A plugin that cannot be used.
    public struct Unavailable: Hashable, Sendable {
        /// Its id, or its folder's name when the id could not be read.
        public var id: String
        /// The manifest's path.
        public var file: String
        /// What is wrong (`FILE:LINE:COLUMN: message` of the first problem).
        public var reason: String
    }

    /// An empty catalog.
    public init() {}

    /// Scans `folders` (a missing folder holds no plugins; that is not a problem).
    ///
    /// - Parameter searchPath: `PATH`, for `exec` programs named without a `/`.
    public static func scan(folders: [String], searchPath: String?) -> PluginCatalog {
        var catalog = PluginCatalog()
        var owners: [String: String] = [:]
        for folder in folders {
            let (entries, problem) = Self.subfolders(of: folder)
            if let problem { catalog.problems.append(problem) }
            for entry in entries {
                let pluginFolder = join(folder, entry)
                guard isFile(join(pluginFolder, PluginManifest.fileName)) else { continue }
                catalog.add(PluginManifest.read(folder: pluginFolder, searchPath: searchPath), folderName: entry,
                            owners: &owners)
            }
        }
        catalog.problems.sort()
        return catalog
    }

    private mutating func add(_ reading: PluginManifest.Reading, folderName: String, owners: inout [String: String]) {
        var problems = reading.problems
        let file = reading.manifest?.file ?? problems.first?.file ?? folderName
        if let id = reading.id, let owner = owners[id] {
            let mark = reading.idMark ?? YAMLMark(line: 1, column: 1)
            problems.append(FileProblem(file: file, line: mark.line, column: mark.column,
                                        message: "plugin id '\(id)' is already used by \(owner); give one of them another id"))
            problems.sort()
        }
        if var manifest = reading.manifest, problems.isEmpty {
            owners[manifest.id] = manifest.file
            manifest.stamp = FileStamp.program(of: manifest)
            manifests.append(manifest)
            return
        }
        self.problems.append(contentsOf: problems)
        let id = reading.id ?? folderName
        if let id = reading.id, owners[id] == nil { owners[id] = file }
        // A duplicate is listed once under its id already; a second entry would confuse status.
        guard !unavailable.contains(where: { $0.id == id }), !manifests.contains(where: { $0.id == id }) else { return }
        unavailable.append(Unavailable(id: id, file: file, reason: problems.first?.description ?? "the manifest is broken"))
    }

    /// The usable plugin with this id.
    public func manifest(id: String) -> PluginManifest? {
        manifests.first { $0.id == id }
    }

    /// Why the plugin `id` cannot be used, when its manifest is broken.
    public func unavailability(id: String) -> Unavailable? {
        unavailable.first { $0.id == id }
    }

    /// The names of `folder`'s entries that are folders (symbolic links
    /// followed), not hidden, sorted; a folder that does not exist has none.
    private static func subfolders(of folder: String) -> (names: [String], problem: FileProblem?) {
        guard let directory = opendir(folder) else {
            if errno == ENOENT { return ([], nil) }
            let reason = String(cString: strerror(errno))
            return ([], FileProblem(file: folder, line: 1, column: 1, message: "cannot read the plugins folder: \(reason)"))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            if stat(join(folder, name), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { names.append(name) }
        }
        return (names.sorted(), nil)
    }
}

/// True for a regular file (symbolic links followed).
func isFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}
