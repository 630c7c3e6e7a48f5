import Glibc

/// The durability floor: the fewest steps that put a file's bytes on disk
/// atomically under its final name — a temporary file in the same folder,
/// written, `fdatasync`ed, closed, renamed over the final name, then the
/// folder `fsync`ed. These are exactly the snapshot store's steps with
/// nothing else around them (no encoding, no compression, no bookkeeping).
///
/// `fdatasync` as the store uses it: for a file just created it flushes its
/// size too, so it gives the same guarantee as `fsync` here.
package final class DurableFile {
    private let folder: String
    private let finalPath: String
    private let folderFD: Int32
    private var counter = 0

    /// Writes go to `folder/name`; the folder must exist.
    package init(folder: String, name: String) throws(BenchError) {
        self.folder = folder
        finalPath = folder + "/" + name
        folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderFD >= 0 else { throw .system("cannot open \(folder)", errno) }
    }

    deinit { close(folderFD) }

    /// Puts `bytes` durably at the final path.
    package func write(_ bytes: [UInt8]) throws(BenchError) {
        counter += 1
        let temporary = folder + "/.tmp-floor-\(counter)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system("cannot create \(temporary)", errno) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                close(fd)
                throw .system("cannot write \(temporary)", errno)
            }
            written += result
        }
        guard fdatasync(fd) == 0 else {
            close(fd)
            throw .system("cannot flush \(temporary)", errno)
        }
        guard close(fd) == 0 else { throw .system("cannot close \(temporary)", errno) }
        guard rename(temporary, finalPath) == 0 else { throw .system("cannot rename \(temporary)", errno) }
        guard fsync(folderFD) == 0 else { throw .system("cannot flush \(folder)", errno) }
    }
}
