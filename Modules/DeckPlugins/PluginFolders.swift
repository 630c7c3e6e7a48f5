import Glibc

/// The plugins folders deckd reads when `--plugins` is not given, shared
/// with `deckctl check` so that both find the same manifests.
package enum PluginFolders {
    /// `$XDG_DATA_HOME/deckd/plugins` (`~/.local/share/deckd/plugins`), then
    /// the example plugins `make install` put beside the running program
    /// (``defaults(user:executable:)``).
    package static func defaults(environment: [String: String]) -> [String] {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        // The XDG spec says to ignore relative values.
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        return defaults(user: data + "/deckd/plugins")
    }

    /// The user's plugins folder, then the example plugins `make install`
    /// put beside this program (`PREFIX/share/deckd/plugins` for
    /// `PREFIX/bin/deckd`) when that folder exists and is another one.
    package static func defaults(user: String, executable: String? = executablePath()) -> [String] {
        // PREFIX/bin/deckd → PREFIX: the path without its last two parts.
        guard let parts = executable?.split(separator: "/", omittingEmptySubsequences: false), parts.count >= 3 else {
            return [user]
        }
        let installed = parts.dropLast(2).joined(separator: "/") + "/share/deckd/plugins"
        var isFolder = stat()
        guard installed != user, stat(installed, &isFolder) == 0, isFolder.st_mode & S_IFMT == S_IFDIR else { return [user] }
        return [user, installed]
    }

    /// This process's program, as the kernel names it (symbolic links resolved).
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
