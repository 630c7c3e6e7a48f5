import Glibc

/// The handful of POSIX calls the store makes, each turning `errno` into a
/// `SnapshotError` that names the operation and the path.
package enum Disk {
    /// Creates `path` for writing; fails if it exists. O_CLOEXEC so a child the
    /// host spawns (an action, a plugin) never inherits a snapshot being written.
    static func createExclusive(_ path: String, mode: mode_t = 0o600) throws(SnapshotError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .system(operation: "create", path: path, code: errno) }
        return fd
    }

    /// Creates `FOLDER/.tmp-NAME-RANDOM`, a fresh file beside the final `NAME`,
    /// so the rename into place never crosses a filesystem.
    static func createTemporary(in folder: String, for name: String) throws(SnapshotError) -> (descriptor: Int32, path: String) {
        let base = folder + "/" + SnapshotStore.temporaryPrefix + name + "-"
        var attempt = 0
        while true {
            attempt += 1
            let path = base + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            do throws(SnapshotError) {
                return (try createExclusive(path), path)
            } catch .system(_, _, let code) where code == EEXIST && attempt < 8 {
                continue
            }
        }
    }

    /// Replaces `FOLDER/NAME` with `bytes` atomically and durably: temporary
    /// file, write, flush, rename, flush the folder. On failure the old file is untouched.
    static func replaceDurably(folder: String, name: String, bytes: [UInt8]) throws(SnapshotError) {
        let (fd, path) = try createTemporary(in: folder, for: name)
        var open = true
        do throws(SnapshotError) {
            try writeAll(fd, bytes, path: path)
            try flushData(fd, path: path)
            open = false
            try close(fd, path: path)
            try rename(path, to: folder + "/" + name)
        } catch {
            if open { _ = Glibc.close(fd) }
            remove(path)
            throw error
        }
        try flushDirectory(folder)
    }

    /// Writes every byte, resuming after partial writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SnapshotError) {
        try writeAll(fd, bytes, at: nil, path: path)
    }

    /// Writes every byte at `offset` with `pwrite` (at the file position when
    /// nil), resuming after partial writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int?, path: String) throws(SnapshotError) {
        let failure: SnapshotError? = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count, let start = raw.baseAddress {
                let result = offset.map { pwrite(fd, start + done, raw.count - done, off_t($0 + done)) }
                    ?? write(fd, start + done, raw.count - done)
                if result < 0 {
                    if errno == EINTR { continue }
                    return .system(operation: "write", path: path, code: errno)
                }
                if result == 0 { return .shortWrite(path: path, written: done, expected: raw.count) }
                done += result
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Flushes a file's data and the metadata needed to read it back (its size).
    static func flushData(_ fd: Int32, path: String) throws(SnapshotError) {
        guard fdatasync(fd) == 0 else { throw .system(operation: "flush to disk", path: path, code: errno) }
    }

    /// Flushes a whole directory entry list, so renames and creations in it survive a power cut.
    static func flushDirectory(_ path: String) throws(SnapshotError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(operation: "open folder", path: path, code: errno) }
        defer { _ = Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw .system(operation: "flush folder", path: path, code: errno) }
    }

    /// `syncfs(2)`: one flush for every dirty file of the filesystem, so a batch
    /// of new files costs one journal commit instead of one each.
    ///
    /// Only used where it reports write-back errors (Linux 5.8 and later);
    /// before that it returned success even when data never reached the disk.
    static func flushFileSystem(_ fd: Int32, path: String) throws(SnapshotError) {
        guard let syncfs = trustworthySyncfs else {
            throw .system(operation: "flush file system of", path: path, code: ENOSYS)
        }
        guard syncfs(fd) == 0 else { throw .system(operation: "flush to disk", path: path, code: errno) }
    }

    /// `syncfs` when this kernel reports its errors, else nil. Looked up with
    /// dlsym because Glibc declares it only under _GNU_SOURCE, which Swift's
    /// Glibc module does not define.
    static let trustworthySyncfs: (@convention(c) (Int32) -> Int32)? = {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2, (numbers[0], numbers[1]) >= (5, 8),
              let symbol = dlsym(dlopen(nil, RTLD_NOW), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// Closes a file that was written; a late write-back error can surface here.
    static func close(_ fd: Int32, path: String) throws(SnapshotError) {
        guard Glibc.close(fd) == 0 else { throw .system(operation: "close", path: path, code: errno) }
    }

    static func rename(_ from: String, to: String) throws(SnapshotError) {
        guard Glibc.rename(from, to) == 0 else { throw .system(operation: "rename into place", path: to, code: errno) }
    }

    /// Removes a file; returns 0 or the errno. Removing a file that is already gone is success.
    @discardableResult
    static func remove(_ path: String) -> Int32 {
        unlink(path) == 0 || errno == ENOENT ? 0 : errno
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates `path` and any missing parents (mode 0700: layouts can hold
    /// commands and tokens), flushing each parent so the new folder survives a power cut.
    ///
    /// `mkdir` is tried once more after the parents exist, never again: some
    /// file systems say ENOENT for a folder whose parent is there (`/proc/x`),
    /// and asking again would recurse without end.
    package static func makeDirectories(_ path: String) throws(SnapshotError) {
        var code = makeDirectory(path)
        let parent = parent(of: path)
        if code == ENOENT && parent != path {
            try makeDirectories(parent)  // shorter each time, down to "/" or ".", where it stops
            code = makeDirectory(path)
        }
        switch code {
        case 0:
            try flushDirectory(parent)
        case EEXIST:
            var info = stat()
            guard stat(path, &info) == 0 else { throw .system(operation: "inspect", path: path, code: errno) }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .system(operation: "use folder", path: path, code: ENOTDIR) }
        default:
            throw .system(operation: "create folder", path: path, code: code)
        }
    }

    /// `mkdir` with mode 0700: 0 or the errno.
    private static func makeDirectory(_ path: String) -> Int32 {
        mkdir(path, 0o700) == 0 ? 0 : errno
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The names in a folder (without `.` and `..`); an absent folder has none.
    package static func entries(of folder: String) throws(SnapshotError) -> [String] {
        guard let stream = opendir(folder) else {
            if errno == ENOENT { return [] }
            throw .system(operation: "list folder", path: folder, code: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A whole file and its size (nil if it does not exist). A file larger
    /// than `limit` is not read: its bytes come back empty, its size says why.
    static func readFile(_ path: String, limit: Int) throws(SnapshotError) -> (bytes: [UInt8], size: Int, regular: Bool)? {
        try readFile(path, prefix: nil, limit: limit)
    }

    /// At most `prefix` bytes from the start of a file and the file's full size.
    ///
    /// `regular` is false, and nothing is read, for a FIFO, folder, socket or
    /// device there.
    static func readFile(_ path: String, prefix: Int?, limit: Int) throws(SnapshotError) -> (bytes: [UInt8], size: Int, regular: Bool)? {
        // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer,
        // forever at start-up. Reads of a regular file ignore the flag.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .system(operation: "open", path: path, code: errno)
        }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(operation: "inspect", path: path, code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return ([], 0, false) }
        let size = Int(info.st_size)
        guard size <= limit else { return ([], size, true) }
        let wanted = min(size, prefix ?? size)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            while count < wanted {
                let result = read(fd, base + count, wanted - count)
                if result < 0 && errno == EINTR { continue }
                if result < 0 { failure = errno; return }
                if result == 0 { return }
                count += result
            }
        }
        guard failure == 0 else { throw .system(operation: "read", path: path, code: failure) }
        return (bytes, size, true)
    }
}
