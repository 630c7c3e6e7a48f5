import Glibc

/// The durability floor: the fewest steps that put a file's bytes on disk
/// atomically under a new final name — a temporary file in the same folder,
/// written, `fdatasync`ed, closed, renamed to the final name, then the
/// folder `fsync`ed. These are exactly the snapshot store's steps with
/// nothing else around them (no encoding, no compression, no bookkeeping).
/// Each write gets a name of its own, as each generation does: renaming over
/// an existing file would also free the old one's blocks in the same journal
/// commit, work the store does apart (retention deletes in the background).
///
/// `fdatasync` as the store uses it: for a file just created it flushes its
/// size too, so it gives the same guarantee as `fsync` here.
package final class DurableFile {
    private let folder: String
    private let finalPrefix: String
    private let folderFD: Int32
    private var counter = 0
    /// Final names written and not yet removed, oldest first.
    private var written: [String] = []

    /// Writes go to `folder/name-N`, N counting up; the folder must exist.
    package init(folder: String, name: String) throws(BenchError) {
        self.folder = folder
        finalPrefix = folder + "/" + name + "-"
        folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderFD >= 0 else { throw .system("cannot open \(folder)", errno) }
    }

    deinit { close(folderFD) }

    /// The group-commit floor: `count` new files of `bytes` made durable
    /// together, as the snapshot store commits a batch — every temporary file
    /// written, one `syncfs` (each file's `fdatasync` where the kernel has
    /// none), every file renamed to a new name, the folder flushed once. (The
    /// store's retention deletes old generations on another thread; the floor
    /// leaves them.)
    package func writeBatch(_ bytes: [UInt8], count: Int) throws(BenchError) {
        var files: [(fd: Int32, temporary: String, final: String)] = []
        defer { for file in files where file.fd >= 0 { close(file.fd) } }
        for _ in 0..<count {
            counter += 1
            let temporary = folder + "/.tmp-batch-\(counter)"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .system("cannot create \(temporary)", errno) }
            files.append((fd, temporary, finalPrefix + String(counter)))
            try writeAll(fd, bytes, path: temporary)
        }
        if count > 1, let syncfs = DurableFile.syncfs {
            guard syncfs(files[0].fd) == 0 else { throw .system("cannot flush \(folder)", errno) }
        } else {
            for file in files where fdatasync(file.fd) != 0 { throw .system("cannot flush \(file.temporary)", errno) }
        }
        for index in files.indices {
            guard close(files[index].fd) == 0 else { throw .system("cannot close \(files[index].temporary)", errno) }
            files[index].fd = -1
            guard rename(files[index].temporary, files[index].final) == 0 else {
                throw .system("cannot rename \(files[index].temporary)", errno)
            }
            written.append(files[index].final)
        }
        guard fsync(folderFD) == 0 else { throw .system("cannot flush \(folder)", errno) }
    }

    /// Deletes all but the newest `keep` files written, as the store's
    /// retention does. Callers run it outside the timed part, as the store
    /// runs retention on another thread.
    package func removeOld(keep: Int = 100) {
        guard written.count > keep else { return }
        for path in written.prefix(written.count - keep) { unlink(path) }
        written.removeFirst(written.count - keep)
    }

    /// `syncfs`, which Swift's Glibc module does not declare.
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// Puts `bytes` durably under the next final name.
    package func write(_ bytes: [UInt8]) throws(BenchError) {
        counter += 1
        let temporary = folder + "/.tmp-floor-\(counter)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system("cannot create \(temporary)", errno) }
        do {
            try writeAll(fd, bytes, path: temporary)
        } catch {
            close(fd)
            throw error
        }
        guard fdatasync(fd) == 0 else {
            close(fd)
            throw .system("cannot flush \(temporary)", errno)
        }
        guard close(fd) == 0 else { throw .system("cannot close \(temporary)", errno) }
        guard rename(temporary, finalPrefix + String(counter)) == 0 else { throw .system("cannot rename \(temporary)", errno) }
        written.append(finalPrefix + String(counter))
        guard fsync(folderFD) == 0 else { throw .system("cannot flush \(folder)", errno) }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(BenchError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw .system("cannot write \(path)", errno) }
            written += result
        }
    }
}
