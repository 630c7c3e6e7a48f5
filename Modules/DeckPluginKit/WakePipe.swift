#if canImport(Glibc)
import Glibc
#endif

/// A pipe one thread writes a byte to so that another, in `poll`, wakes:
/// both ends close-on-exec (a plugin's children never hold it) and
/// non-blocking (a full pipe already wakes, so a lost byte loses nothing).
/// The descriptors are -1 when no pipe could be made; then nothing wakes.
package final class WakePipe: Sendable {
    /// The end to watch for `POLLIN`.
    package let readEnd: Int32
    private let writeEnd: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Wakes the watcher, from any thread.
    package func wake() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe (the watcher's side).
    package func drain() {
        guard readEnd >= 0 else { return }
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
