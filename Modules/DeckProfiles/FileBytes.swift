#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Reads a whole regular file with POSIX calls, so a failure comes back as
/// the system's own short reason ("No such file or directory"). Package API:
/// plugin manifests are read the same way.
package enum FileBytes {
    /// Why a file could not be read, as a phrase.
    package struct Failure: Error {
        package var reason: String
    }

    package static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer
        // (forever, at start-up); the check below then refuses it. Reads of a
        // regular file ignore the flag.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a folder, not a file" : "it is not a regular file")
        }
        guard Int(info.st_size) <= maxBytes else { throw Failure(reason: "it is larger than \(maxBytes >> 20) MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        // The size can change while reading (an editor saving): read to the end
        // of what is there, growing past the size seen by fstat if needed.
        while true {
            if filled == bytes.count {
                guard bytes.count < maxBytes else { throw Failure(reason: "it is larger than \(maxBytes >> 20) MiB") }
                bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemRead(fd, base + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
