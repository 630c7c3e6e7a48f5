#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that it is either the old file or the whole new one,
/// never half of it, even if the machine loses power: the bytes go to a
/// temporary file in the same folder, which is flushed to disk (`fsync`)
/// and renamed over the target; then the folder is flushed so the rename
/// itself survives.
enum AtomicFile {
    /// Replaces `path` with `bytes`. A file already there keeps its
    /// permission bits; a new one gets 0644 less the umask. Throws a
    /// sentence naming the path and the reason.
    static func write(_ bytes: [UInt8], to path: String) throws(DeckctlError) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .failed("cannot write '\(path)': it names a folder, not a file") }
        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        if stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFDIR {
            throw .failed("cannot write '\(path)': it is a folder; give a file name")
        }
        let temporary = "\(folder)/.\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(path) }
        var ok = writeAll(bytes, to: descriptor) && fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0
        let writeError = errno
        ok = close(descriptor) == 0 && ok
        guard ok, rename(temporary, path) == 0 else {
            let code = ok ? errno : writeError
            unlink(temporary)
            errno = code
            throw failure(path)
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    private static func failure(_ path: String) -> DeckctlError {
        let code = errno
        let reason = String(cString: strerror(code))
        // What to do next, for the two a person meets: a folder not made yet, a folder not theirs.
        let next = switch code {
        case ENOENT: "; make the folder first, or give a path in one that exists"
        case EACCES, EPERM, EROFS: "; give a path in a folder you can write"
        default: ""
        }
        return .failed("cannot write '\(path)': \(reason)\(next)")
    }
}
