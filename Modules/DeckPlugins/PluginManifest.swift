import DeckProfiles

/// A plugin's `plugin.yaml` (PLUGINS.md §1), read and checked.
///
/// ```yaml
/// id: counter
/// name: Counter
/// version: 1.0.0
/// protocol: 1
/// exec: [./counter]
/// commands:
///   - {name: increment, title: "Count presses"}
///   - {name: reset}
/// ```
public struct PluginManifest: Hashable, Sendable {
    /// The name profiles use in `{plugin: ID, command: …}`.
    public var id: String
    /// A name for people; the id when the manifest gives none.
    public var name: String
    /// The plugin's own version, as written; nil when not given.
    public var version: String?
    /// The plugin protocol level it speaks (1).
    public var protocolLevel: Int
    /// `exec` as written in the file.
    public var exec: [String]
    /// The program `exec` names, resolved: an absolute path.
    public var executable: String
    /// The commands the plugin lists (may be empty: the list is documentation
    /// for people writing profiles; the host hands any command on).
    public var commands: [PluginCommand]
    /// The plugin's folder (absolute or as the plugins folder was given);
    /// the plugin runs with it as its working directory.
    public var folder: String
    /// The manifest's path, as problems name it.
    public var file: String
    /// What the plugin's program files were when the folders were read
    /// (``FileStamp/program(of:)``): part of equality, so a reload restarts a
    /// plugin whose program changed, not only one whose manifest says
    /// something new (issue 17 §2).
    public var stamp: [FileStamp] = []

    /// The argument vector the host starts: the resolved program, then
    /// `exec`'s other items unchanged.
    public var arguments: [String] { [executable] + exec.dropFirst() }

    /// The file name every plugin folder holds.
    public static let fileName = "plugin.yaml"

    /// Makes a manifest value (``load(folder:searchPath:)`` reads one from disk).
    public init(id: String, name: String? = nil, version: String? = nil, protocolLevel: Int = 1, exec: [String],
                executable: String, commands: [PluginCommand] = [], folder: String, file: String) {
        self.id = id
        self.name = name ?? id
        self.version = version
        self.protocolLevel = protocolLevel
        self.exec = exec
        self.executable = executable
        self.commands = commands
        self.folder = folder
        self.file = file
    }
}

/// One entry of a manifest's `commands` list.
public struct PluginCommand: Hashable, Sendable {
    /// What a button names in `command:`.
    public var name: String
    /// A description for people; nil when not given.
    public var title: String?
    /// `hold: true`: a press-and-hold command (push to talk). Devices send
    /// its `down` and `up`, and a hold on it does not open settings
    /// (PLUGINS.md §1, PROTOCOL.md §5 `holdSlots`).
    public var hold: Bool
    /// The settings a button of this command may give, by key; nil when the
    /// manifest declares none (then any settings are handed on unchecked).
    public var settings: [String: SettingDeclaration]?

    /// Makes a command entry.
    public init(name: String, title: String? = nil, hold: Bool = false, settings: [String: SettingDeclaration]? = nil) {
        self.name = name
        self.title = title
        self.hold = hold
        self.settings = settings
    }
}

extension PluginManifest {
    /// Reads and checks `FOLDER/plugin.yaml`.
    ///
    /// - Parameter searchPath: `PATH`, for an `exec` program named without a
    ///   `/` that is not in the folder (`exec: [python3, hold.py]`).
    /// - Throws: ``DeckPluginsError/invalidManifest(_:)`` with every problem.
    public static func load(folder: String, searchPath: String?) throws(DeckPluginsError) -> PluginManifest {
        let outcome = read(folder: folder, searchPath: searchPath)
        guard let manifest = outcome.manifest else { throw .invalidManifest(outcome.problems) }
        return manifest
    }

    /// Checks manifest text as if it were `FOLDER/plugin.yaml`.
    public static func parse(_ bytes: [UInt8], folder: String, searchPath: String?) throws(DeckPluginsError) -> PluginManifest {
        let file = join(folder, fileName)
        var reader = ManifestReader(document: YAMLDocument.parse(bytes, file: file), folder: folder,
                                    searchPath: searchPath)
        guard let manifest = reader.read() else { throw .invalidManifest(reader.problems) }
        return manifest
    }

    /// What reading a manifest found, for discovery: the manifest, or the
    /// problems plus whatever id could be read (for the status of an
    /// unavailable plugin and for duplicate ids).
    struct Reading {
        var manifest: PluginManifest?
        var id: String?
        var idMark: YAMLMark?
        var problems: [FileProblem]
    }

    static func read(folder: String, searchPath: String?) -> Reading {
        let file = join(folder, fileName)
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(file, maxBytes: 1 << 20)
        } catch {
            let problem = FileProblem(file: file, line: 1, column: 1, message: "cannot read the file: \(error.reason)")
            return Reading(problems: [problem])
        }
        var reader = ManifestReader(document: YAMLDocument.parse(bytes, file: file), folder: folder, searchPath: searchPath)
        let manifest = reader.read()
        return Reading(manifest: manifest, id: reader.id, idMark: reader.idMark, problems: reader.problems)
    }
}

/// `folder/name`, without doubling a `/`.
func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
}

