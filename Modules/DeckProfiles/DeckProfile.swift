import DeckModel

/// A profile: a named layout, as a person writes it in a YAML file (PROFILE.md).
public struct DeckProfile: Hashable, Sendable {
    /// The profile's name: its `name:` key, or else the file's stem.
    public var name: String
    /// The layout, in normal form once loaded.
    public var layout: DeckLayout

    /// A profile from a name and a layout (for export, or tests).
    public init(name: String, layout: DeckLayout) {
        self.name = name
        self.layout = layout
    }

    /// The largest profile file read, in bytes: far above any real profile,
    /// low enough that a stray huge file cannot exhaust the host.
    public static let maximumFileBytes = 64 << 20

    /// Parses and checks profile YAML.
    ///
    /// - Parameters:
    ///   - bytes: the file's content (UTF-8).
    ///   - file: how problems name the file (a path as the person gave it);
    ///     its stem is the profile's name unless the file has `name:`.
    /// - Returns: the profile with its layout normalized.
    /// - Throws: `DeckProfilesError.invalid` with every problem of the file,
    ///   sorted by position.
    public static func parse(_ bytes: [UInt8], file: String) throws(DeckProfilesError) -> DeckProfile {
        let outcome = read(bytes, file: file)
        guard let profile = outcome.profile else { throw .invalid(outcome.problems) }
        return profile
    }

    /// The profile or every problem, and where `name:` is (for problems the
    /// folder finds later, such as a name two files share).
    static func read(_ bytes: [UInt8], file: String) -> Reading {
        // Never given up, so always read to the end.
        read(bytes, file: file, giveUpWhen: { false }) ?? (nil, [], nil, [])
    }

    /// The profile or every problem, where `name:` is, and where each plugin
    /// button's settings are (``SettingsSite``, once each).
    typealias Reading = (profile: DeckProfile?, problems: [FileProblem], nameMark: YAMLMark?, sites: [SettingsSite])

    /// ``read(_:file:)`` that gives up, returning nil, once `superseded` says
    /// so (checked as the YAML is parsed, and before the layout is read).
    static func read(_ bytes: [UInt8], file: String, giveUpWhen superseded: @escaping @Sendable () -> Bool) -> Reading? {
        var limits = YAMLLimits()
        limits.maxBytes = maximumFileBytes
        limits.giveUp = superseded
        let document = YAMLDocument.parse(bytes, file: file, limits: limits)
        if document.abandoned || superseded() { return nil }
        var reader = ProfileReader(document: document)
        let profile = reader.read(defaultName: stem(of: file))
        var seen: Set<SettingsSite> = []
        return (profile, reader.problems, reader.nameMark, reader.settingsSites.filter { seen.insert($0).inserted })
    }

    /// Parses and checks profile YAML held in a string.
    public static func parse(_ yaml: String, file: String) throws(DeckProfilesError) -> DeckProfile {
        try parse(Array(yaml.utf8), file: file)
    }

    /// The name a file gives a profile that has no `name:` key: its last path
    /// component without the `.yaml` or `.yml` extension.
    public static func stem(of file: String) -> String {
        let base = file.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? file
        for suffix in [".yaml", ".yml"] where base.hasSuffix(suffix) && base.count > suffix.count {
            return String(base.dropLast(suffix.count))
        }
        return base
    }
}
