import Glibc

/// The lines waiting to be written to a plugin's input, bounded in lines and
/// bytes, so a plugin that stops reading costs the host a fixed amount of
/// memory and never a blocked write.
///
/// A line is written whole or its rest stays at the head (the pipe is
/// non-blocking, so a write may be short); a partly written line is never
/// dropped, which would break the framing of every line after it.
struct PluginOutbox {
    /// How a write attempt went.
    enum Flush: Equatable {
        /// Everything queued is written.
        case empty
        /// The pipe is full; wait until it is writable.
        case blocked
        /// The plugin's end is closed (EPIPE) or the write failed.
        case broken(errno: Int32)
    }

    let maximumLines: Int
    let maximumBytes: Int
    private var lines: [[UInt8]] = []
    private var head = 0
    /// How much of `lines[head]` is already written.
    private var written = 0
    private(set) var queuedBytes = 0

    init(maximumLines: Int, maximumBytes: Int) {
        self.maximumLines = maximumLines
        self.maximumBytes = maximumBytes
    }

    var isEmpty: Bool { head == lines.count }
    var count: Int { lines.count - head }

    /// Adds a line at the end; false (and nothing added) when the bound is reached.
    ///
    /// A line alone in the queue may be longer than ``maximumBytes`` (a
    /// `buttons` line of a big layout): refusing it would keep it from a
    /// plugin that reads, forever, and its size is bounded by the layout's.
    mutating func append(_ line: [UInt8]) -> Bool {
        guard count < maximumLines, isEmpty || queuedBytes + line.count <= maximumBytes else { return false }
        lines.append(line)
        queuedBytes += line.count
        return true
    }

    /// Writes as much as `descriptor` takes now.
    mutating func flush(to descriptor: Int32) -> Flush {
        while head < lines.count {
            let count = lines[head].withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    compact()
                    return .blocked
                }
                return .broken(errno: errno)
            }
            written += count
            queuedBytes -= count
            if written == lines[head].count {
                head += 1
                written = 0
            }
        }
        lines.removeAll(keepingCapacity: lines.capacity <= 64)
        head = 0
        return .empty
    }

    /// Drops the written lines from the front of the array once they are
    /// half of it, so a queue that never quite empties does not grow.
    private mutating func compact() {
        guard head > 64, head * 2 > lines.count else { return }
        lines.removeFirst(head)
        head = 0
    }

    /// Forgets everything queued (the process is gone).
    mutating func removeAll() {
        lines = []
        head = 0
        written = 0
        queuedBytes = 0
    }
}
