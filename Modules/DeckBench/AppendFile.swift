import Glibc

/// The journal's durability floor: records appended to a file that already
/// exists, made durable with one `fdatasync` — no new file, no rename, no
/// folder flush. Each record is the same 24-byte header the journal writes
/// (here zeros; no checksum is computed) followed by the snapshot bytes.
package final class AppendFile {
    private let path: String
    private let descriptor: Int32
    private var end: Int = 0

    /// Creates `folder/name` and makes it and its folder durable (outside any timed part).
    package init(folder: String, name: String) throws(BenchError) {
        path = folder + "/" + name
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot create \(path)", errno) }
        guard fsync(descriptor) == 0 else { throw .system("cannot flush \(path)", errno) }
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if folderFD >= 0 { close(folderFD) } }
        guard folderFD >= 0, fsync(folderFD) == 0 else { throw .system("cannot flush \(folder)", errno) }
    }

    deinit { close(descriptor) }

    /// `count` records of `bytes` in one `pwrite`, then one `fdatasync`.
    package func append(_ bytes: [UInt8], count: Int = 1) throws(BenchError) {
        var batch: [UInt8] = []
        batch.reserveCapacity(count * (bytes.count + 24))
        for _ in 0..<count {
            batch += [UInt8](repeating: 0, count: 24)
            batch += bytes
        }
        var done = 0
        while done < batch.count {
            let result = batch.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, batch.count - done, off_t(end + done)) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw .system("cannot append to \(path)", errno) }
            done += result
        }
        end += batch.count
        guard fdatasync(descriptor) == 0 else { throw .system("cannot flush \(path)", errno) }
    }
}
