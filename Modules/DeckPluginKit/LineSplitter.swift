/// Cuts a byte stream into lines at LF, with a bound on line length, for
/// both ends of a plugin's pipes (the plugin reading the host, the host
/// reading a plugin).
///
/// A line longer than ``limit`` is reported once, as soon as it passes the
/// limit (without waiting for its end, so a peer that never sends a line
/// feed cannot make the reader buffer without bound), and its bytes are
/// dropped up to the next LF. A CR before the LF is removed.
package struct LineSplitter {
    /// What ``append(_:_:)`` finds.
    package enum Piece {
        /// A complete line, without its line ending.
        case line([UInt8])
        /// A line passed the limit after `bytes` bytes; the rest of it is skipped.
        case tooLong(bytes: Int)
    }

    /// Longest accepted line, in bytes, without its line ending.
    package let limit: Int
    private var pending: [UInt8] = []
    /// Inside a line that passed the limit: drop bytes up to its LF.
    private var skipping = false

    /// A splitter accepting lines of up to `limit` bytes.
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Bytes of an unfinished line held right now.
    package var bufferedBytes: Int { pending.count }

    /// Feeds `bytes`, calling `each` for every line completed and every line
    /// found too long, in order.
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ each: (Piece) -> Void) {
        var start = 0
        while start < bytes.count {
            let rest = UnsafeBufferPointer(rebasing: bytes[start...])
            let newline = rest.firstIndex(of: 0x0A).map { $0 + start }
            let end = newline ?? bytes.count
            if !skipping {
                let room = limit - pending.count
                if end - start > room {
                    // The line passes the limit: report it now, skip to its end.
                    let seen = pending.count + (end - start)
                    pending.removeAll(keepingCapacity: false)
                    skipping = true
                    each(.tooLong(bytes: seen))
                } else {
                    pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
            }
            guard let newline else { return }
            if skipping {
                skipping = false
            } else {
                if pending.last == 0x0D { pending.removeLast() }
                each(.line(pending))
                pending.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
    }

    /// Feeds the bytes of an array.
    package mutating func append(_ bytes: [UInt8], _ each: (Piece) -> Void) {
        bytes.withUnsafeBufferPointer { append($0, each) }
    }

    /// At end of input: a last line without its LF is delivered as a line.
    package mutating func finish(_ each: (Piece) -> Void) {
        defer {
            pending = []
            skipping = false
        }
        guard !skipping, !pending.isEmpty else { return }
        if pending.last == 0x0D { pending.removeLast() }
        each(.line(pending))
    }
}
