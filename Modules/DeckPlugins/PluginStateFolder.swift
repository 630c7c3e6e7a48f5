import Glibc

/// Each plugin's own folder for what it keeps between runs (the keys
/// plugin's portal restore token): `<deckd state folder>/plugins/<id>`,
/// made 0700 by the host before every spawn and named to the plugin in
/// `DECK_PLUGIN_STATE`. `deckctl plugins ID --reset` empties it.
enum PluginStateFolder {
    /// The environment variable that names the folder to the plugin.
    static let variable = "DECK_PLUGIN_STATE"

    /// Makes `folder` (and its parent, the plugins' root) 0700 if missing;
    /// an existing one is narrowed to 0700 too, since a token in it is a
    /// standing permission to type on the desktop.
    static func prepare(_ folder: String) throws(DeckPluginsError) {
        let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
        for path in [parent, folder] where !path.isEmpty {
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .spawnFailed(program: folder, reason: "could not make the plugin's state folder \(path): \(String(cString: strerror(errno)))")
            }
        }
        guard chmod(folder, 0o700) == 0 else {
            throw .spawnFailed(program: folder, reason: "could not make the plugin's state folder \(folder) private: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes everything inside `folder` (not the folder itself); a missing
    /// folder is already empty. Returns why it could not, or nil.
    static func empty(_ folder: String) -> String? {
        guard let directory = opendir(folder) else {
            return errno == ENOENT ? nil : "could not open \(folder): \(String(cString: strerror(errno)))"
        }
        defer { closedir(directory) }
        var problem: String?
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let path = folder + "/" + name
            // unlink refuses a folder with EISDIR on Linux: empty it, then remove it.
            if unlink(path) == 0 { continue }
            if errno == EISDIR, empty(path) == nil, rmdir(path) == 0 { continue }
            problem = problem ?? "could not remove \(path): \(String(cString: strerror(errno)))"
        }
        return problem
    }

    /// The host's environment with `DECK_PLUGIN_STATE=folder` (replacing any inherited one).
    static func environment(naming folder: String) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix(variable + "=") { entries.append(text) }
            pointer += 1
        }
        return entries + ["\(variable)=\(folder)"]
    }
}
