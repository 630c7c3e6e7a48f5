import Glibc

/// One file as `stat` sees it, enough to tell that it was replaced or
/// written: a reload restarts a plugin whose folder changed (issue 17 §2).
public struct FileStamp: Hashable, Sendable {
    /// The path.
    public var path: String
    /// Its size in bytes.
    public var size: Int
    /// Its inode (a file replaced by a rename is another inode).
    public var inode: UInt64
    /// Its last modification, in nanoseconds since 1970.
    public var modified: Int64
    /// Its last status change (a `chmod`, a rename onto it), in nanoseconds since 1970.
    public var changed: Int64

    /// Stamps a regular file; nil when it cannot be read or is not one.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
        return FileStamp(path: path, size: Int(info.st_size), inode: UInt64(info.st_ino),
                         modified: nanoseconds(info.st_mtim), changed: nanoseconds(info.st_ctim))
    }

    /// The plugin's program: the executable, and each `exec` argument that
    /// names a file (`[python3, talk.py]`), relative to the plugin's folder.
    /// Files the plugin writes while it runs (its own state) do not count.
    static func program(of manifest: PluginManifest) -> [FileStamp] {
        var paths: Set<String> = [manifest.executable]
        for argument in manifest.exec.dropFirst() where !argument.hasPrefix("-") {
            paths.insert(argument.hasPrefix("/") ? argument : manifest.folder + "/" + argument)
        }
        return paths.sorted().compactMap(of)
    }
}
