import Glibc

/// Where icons are looked for (WEB.md §5, the freedesktop Icon Theme
/// Specification): the base folders and the desktop's theme.
public struct IconSearch: Sendable, Equatable {
    /// Base folders in order: `~/.icons`, `$XDG_DATA_HOME/icons`, each `$XDG_DATA_DIRS/icons`, `/usr/share/pixmaps`.
    public var baseFolders: [String]
    /// The desktop's theme, searched before `hicolor`; nil for hicolor alone.
    public var theme: String?

    /// Makes one.
    public init(baseFolders: [String], theme: String?) {
        self.baseFolders = baseFolders
        self.theme = theme
    }

    /// From the environment: `XDG_DATA_HOME`, `XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`); the theme from `DECK_ICON_THEME`, else
    /// GTK's settings.ini (`gtk-icon-theme-name`, which GNOME's gsettings key
    /// mirrors), else KDE's kdeglobals `[Icons] Theme`, when `XDG_CURRENT_DESKTOP` names a desktop.
    public static func fromEnvironment(_ environment: [String: String]) -> IconSearch {
        let home = environment["HOME"] ?? ""
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        var bases: [String] = []
        if !home.isEmpty { bases.append(home + "/.icons") }
        bases.append(dataHome + "/icons")
        bases += dataDirs.map { $0 + "/icons" }
        bases.append("/usr/share/pixmaps")
        var theme = environment["DECK_ICON_THEME"].flatMap { $0.isEmpty ? nil : $0 }
        if theme == nil, environment["XDG_CURRENT_DESKTOP"].map({ !$0.isEmpty }) == true {
            let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
            theme = IniFile(path: config + "/gtk-3.0/settings.ini")?.value("gtk-icon-theme-name", in: "Settings")
                ?? IniFile(path: config + "/kdeglobals")?.value("Theme", in: "Icons")
        }
        return IconSearch(baseFolders: bases, theme: theme)
    }
}

/// An icon theme's `index.theme` or a desktop settings file: `[Group]` and `key=value` lines.
struct IniFile {
    private var groups: [String: [String: String]] = [:]

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size < 1 << 20,
              let bytes = StaticFiles.read(path, size: Int(info.st_size)) else { return nil }
        var group = ""
        for raw in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: " \t")
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                groups[group, default: [:]][line[..<equals].trimmingCharacters(in: " \t")] =
                    line[line.index(after: equals)...].trimmingCharacters(in: " \t")
            }
        }
    }

    func value(_ key: String, in group: String) -> String? { groups[group]?[key] }
    func groupNames() -> [String] { Array(groups.keys) }
}

/// Icon lookup by name, the spec's way: the theme, what it inherits, then
/// `hicolor`, then the pixmaps folder; scalable SVG first, else the largest PNG.
/// Results (found or not) are cached: a desktop's themes do not change under a deck.
final class IconCache {
    static let maxEntries = 1024

    private let search: IconSearch
    private var found: [String: StaticFile?] = [:]

    init(search: IconSearch) {
        self.search = search
    }

    /// The image for a button's icon name; nil for a name that is not one
    /// (an emoji, a path) or is in no theme.
    func icon(named name: String) -> StaticFile? {
        guard Self.isIconName(name) else { return nil }
        if let cached = found[name] { return cached }
        let file = lookUp(name).flatMap { path in
            StaticFiles.read(path, size: Self.size(of: path)).map { StaticFile(bytes: $0, contentType: ContentTypes.type(forPath: path)) }
        }
        if found.count >= Self.maxEntries { found.removeAll() }
        found[name] = file
        return file
    }

    /// Icon names are `[A-Za-z0-9._-]`, not starting with a dot.
    static func isIconName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && !name.hasPrefix(".") && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// The path of the best image for `name`.
    func lookUp(_ name: String) -> String? {
        var visited: Set<String> = []
        var queue = search.theme.map { [$0] } ?? []
        queue.append("hicolor")
        while !queue.isEmpty {
            let theme = queue.removeFirst()
            guard visited.insert(theme).inserted else { continue }
            let (path, inherits) = lookUp(name, inTheme: theme)
            if let path { return path }
            // The theme's parents come before hicolor (which is always last).
            let hicolor = queue.firstIndex(of: "hicolor") ?? queue.endIndex
            queue.insert(contentsOf: inherits.filter { !visited.contains($0) }, at: hicolor)
        }
        for base in search.baseFolders where base.hasSuffix("/pixmaps") {
            for ext in ["svg", "png"] where Self.isFile("\(base)/\(name).\(ext)") { return "\(base)/\(name).\(ext)" }
        }
        return nil
    }

    private func lookUp(_ name: String, inTheme theme: String) -> (String?, [String]) {
        var best: (path: String, size: Int)?
        var inherits: [String] = []
        for base in search.baseFolders where !base.hasSuffix("/pixmaps") {
            let themeFolder = "\(base)/\(theme)"
            guard let index = IniFile(path: themeFolder + "/index.theme") else { continue }
            if inherits.isEmpty, let parents = index.value("Inherits", in: "Icon Theme") {
                inherits = parents.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
            }
            let folders = (index.value("Directories", in: "Icon Theme") ?? "")
                + "," + (index.value("ScaledDirectories", in: "Icon Theme") ?? "")
            for folder in folders.split(separator: ",").map({ $0.trimmingCharacters(in: " ") }) where !folder.isEmpty {
                let type = index.value("Type", in: folder) ?? "Threshold"
                let size = Int(index.value("Size", in: folder) ?? "") ?? 0
                let svg = "\(themeFolder)/\(folder)/\(name).svg"
                if Self.isFile(svg) {
                    // Scalable first: an SVG from a scalable folder wins at once.
                    if type == "Scalable" { return (svg, inherits) }
                    if best.map({ $0.size < Int.max / 2 }) ?? true { best = (svg, Int.max / 2) }
                }
                let png = "\(themeFolder)/\(folder)/\(name).png"
                if Self.isFile(png), size > (best?.size ?? -1) { best = (png, size) }
            }
        }
        return (best?.path, inherits)
    }

    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func size(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size <= StaticFiles.maxFileBytes else { return 0 }
        return Int(info.st_size)
    }
}
