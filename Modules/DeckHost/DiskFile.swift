import Glibc

/// Small whole-file reads and durable atomic writes for the host's own files
/// (device tokens). Call off the event loop: they wait for the disk.
enum DiskFile {
    /// The file's bytes, or nil when it does not exist.
    static func readIfPresent(_ path: String, limit: Int) throws(HostError) -> [UInt8]? {
        // O_NONBLOCK: a FIFO there would otherwise block the open forever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .runtime(describe("open", path))
        }
        defer { _ = close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .runtime(describe("inspect", path)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .runtime("\(path) is not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .runtime(describe("read", path))
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw .runtime("\(path) is larger than \(limit) bytes") }
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, flushes it, renames
    /// it over `path` and flushes the folder: after a crash the file is
    /// either the old one or the new one, never half of either.
    ///
    /// The temporary name is always the same (``temporary(of:)``): one host
    /// writes the state folder (its lock), and a crash's leftover is removed
    /// by the next write or the next start instead of piling up.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(HostError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let temporary = Self.temporary(of: path)
        _ = unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .runtime(describe("create", temporary)) }
        var failure: HostError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 {
                    failure = .runtime(describe("write", temporary))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = .runtime(describe("flush", temporary)) }
        if close(descriptor) != 0, failure == nil { failure = .runtime(describe("close", temporary)) }
        if failure == nil, rename(temporary, path) != 0 { failure = .runtime(describe("rename", temporary)) }
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else { throw .runtime(describe("open the folder of", path)) }
        defer { _ = close(folderDescriptor) }
        if fsync(folderDescriptor) != 0 { throw .runtime(describe("flush the folder of", path)) }
    }

    /// "could not OPERATION PATH: reason".
    /// Where ``writeAtomically(_:to:mode:)`` writes before the rename.
    static func temporary(of path: String) -> String { path + ".tmp" }

    static func describe(_ operation: String, _ path: String) -> String {
        "could not \(operation) \(path): \(String(cString: strerror(errno)))"
    }
}
