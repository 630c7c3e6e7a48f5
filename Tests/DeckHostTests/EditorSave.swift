import Foundation

/// The ways editors save a file, done with the same system calls in the
/// same order, so end-to-end tests can save a profile as a person's editor
/// would (docs/profiles.md, "Saving while deckd runs").
enum EditorSave: String, CaseIterable, CustomStringConvertible, Sendable {
    /// Overwrites the existing file's bytes, then cuts it to the new length
    /// (no truncation first: the file is never seen empty).
    case inPlace
    /// Truncates on open, then writes in two pieces (VS Code, nano, `>` in a shell).
    case truncateAndWrite
    /// A hidden temporary file in the same folder, flushed and renamed over
    /// the file (GLib's g_file_replace as gedit uses it, Sublime's atomic save, rsync).
    case hiddenTempRenamedOver
    /// JetBrains' "safe write": `FILE___jb_tmp___` written, the original
    /// renamed to `FILE___jb_old___`, the temporary renamed into place, the old one deleted.
    case jetBrainsSafeWrite
    /// Vim's default with `backupcopy=auto`: probes the folder with a file
    /// `4913`, renames the original to `FILE~`, writes a new file, deletes
    /// the backup (`nowritebackup` off, `nobackup`); its swap file stays beside.
    case vimBackupRename
    /// Emacs: the first save renames the original to `FILE~` (kept) and
    /// writes a new file, later ones write in place; a lock symlink `.#FILE`
    /// exists while it is edited.
    case emacsBackupRename

    var description: String { rawValue }

    /// The names each style leaves in the folder (or has there for a while).
    static let leftovers = ["4913", ".default.yaml.swp", "default.yaml~", ".#default.yaml", "#default.yaml#",
                            "default.yaml___jb_tmp___", "default.yaml___jb_old___", ".goutputstream-7QX1Z2"]

    /// Saves `text` as `name` in `folder` this way.
    func save(_ text: String, as name: String, in folder: String) throws {
        let path = folder + "/" + name
        let bytes = Array(text.utf8)
        switch self {
        case .inPlace:
            let fd = try Self.open(path, O_WRONLY | O_CREAT)
            defer { close(fd) }
            try Self.write(fd, bytes[...])
            guard ftruncate(fd, off_t(bytes.count)) == 0 else { throw Self.failure("truncate", path) }
        case .truncateAndWrite:
            let fd = try Self.open(path, O_WRONLY | O_CREAT | O_TRUNC)
            defer { close(fd) }
            try Self.write(fd, bytes[..<(bytes.count / 2)])
            try Self.write(fd, bytes[(bytes.count / 2)...])
        case .hiddenTempRenamedOver:
            let temporary = folder + "/.goutputstream-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            try Self.create(temporary, bytes, flush: true)
            try Self.rename(temporary, path)
        case .jetBrainsSafeWrite:
            try Self.create(path + "___jb_tmp___", bytes, flush: true)
            try Self.rename(path, path + "___jb_old___")
            try Self.rename(path + "___jb_tmp___", path)
            try Self.remove(path + "___jb_old___")
        case .vimBackupRename:
            let swap = folder + "/." + name + ".swp"
            if access(swap, F_OK) != 0 { try Self.create(swap, Array("b0VIM 9.0".utf8), flush: false) }
            try Self.create(folder + "/4913", [], flush: false)
            try Self.remove(folder + "/4913")
            try Self.rename(path, path + "~")
            try Self.create(path, bytes, flush: true)
            try Self.remove(path + "~")
        case .emacsBackupRename:
            let lock = folder + "/.#" + name
            // A dangling link, as Emacs makes it (its target says who edits).
            if symlink("user@host.1234:1700000000", lock) != 0, errno != EEXIST { throw Self.failure("symlink", lock) }
            if access(path + "~", F_OK) == 0 {
                // Later saves of the session overwrite the file.
                try Self.truncateAndWrite.save(text, as: name, in: folder)
            } else {
                try Self.rename(path, path + "~")
                try Self.create(path, bytes, flush: true)
            }
        }
    }

    /// Opens `path` for a writer that stays open (a save still in progress).
    static func open(_ path: String, _ flags: Int32) throws -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("open", path) }
        return fd
    }

    private static func create(_ path: String, _ bytes: [UInt8], flush: Bool) throws {
        let fd = try open(path, O_WRONLY | O_CREAT | O_TRUNC)
        defer { close(fd) }
        try write(fd, bytes[...])
        if flush, fsync(fd) != 0 { throw failure("flush", path) }
    }

    /// Writes all of `bytes`.
    static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws {
        var rest = bytes
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure("write", "fd \(fd)") }
            rest = rest.dropFirst(count)
        }
    }

    private static func rename(_ from: String, _ to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw failure("rename to \(to)", from) }
    }

    private static func remove(_ path: String) throws {
        guard unlink(path) == 0 else { throw failure("remove", path) }
    }

    private static func failure(_ what: String, _ path: String) -> Error {
        SaveFailure(description: "could not \(what) \(path): \(String(cString: strerror(errno)))")
    }

    private struct SaveFailure: Error, CustomStringConvertible {
        let description: String
    }
}
