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
        // One byte more than the size: a file that did not grow is read to its
        // end without growing the buffer (doubling it only to see the end made a
        // 10 MB read take seconds in a debug build, and the scan cannot give up then).
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        // The size can change while reading (an editor saving): read to the end
        // of what is there, growing past the size seen by fstat if needed.
        while true {
            if filled == bytes.count {
                guard filled <= maxBytes else { throw Failure(reason: "it is larger than \(maxBytes >> 20) MiB") }
                // Never past one byte over the bound, which is then refused.
                bytes += [UInt8](repeating: 0, count: min(max(4096, bytes.count), maxBytes + 1 - filled))
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
        guard filled <= maxBytes else { throw Failure(reason: "it is larger than \(maxBytes >> 20) MiB") }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
