import DeckPlugins

/// Property: every problem of a refused manifest names the file and a position
/// inside it; an accepted one has an id and a program to start.
enum ManifestFuzz {
    /// A folder that does not exist, so that only absolute programs
    /// (`exec: [/bin/sh]`) and ones on `searchPath` resolve, whatever the
    /// machine holds: the same inputs give the same outcome everywhere.
    static let folder = "/nonexistent/deck-fuzz/plugin"
    static let searchPath = "/usr/bin:/bin"

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let manifest: PluginManifest
        do throws(DeckPluginsError) {
            manifest = try PluginManifest.parse(bytes, folder: folder, searchPath: searchPath)
        } catch {
            guard case .invalidManifest(let problems) = error else {
                throw FuzzFinding("reading a manifest failed with \(error), not its problems")
            }
            try FilePositions(bytes).requireInside(problems, file: folder + "/" + PluginManifest.fileName,
                                                   reader: "the manifest reader")
            return
        }
        try require(!manifest.id.isEmpty && !manifest.exec.isEmpty && !manifest.executable.isEmpty,
                    "an accepted manifest has no id or no program: \(manifest)")
    }
}
