import Glibc
import Synchronization

/// How important a log line is; `--log-level` hides the ones below it.
public enum LogLevel: String, Sendable, Comparable, CaseIterable {
    /// Details for finding a problem (no-op edits, probe readings).
    case debug
    /// One line per event: joins, edits, presses, reloads (the default).
    case info
    /// Something went wrong that the host worked around (a broken file, a failed probe).
    case warning
    /// Something failed (a snapshot that could not be written).
    case error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    /// Orders by importance: debug < info < warning < error.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// The host's log: one line per event on standard error,
/// `2026-11-29T16:40:00Z info moved 'Files' 0/1 -> 1/0 by Kim's iPhone`.
///
/// Safe from any thread: a line is written with one `write` under a lock (a
/// loop turn's lines together, up to PIPE_BUF bytes a `write`), so lines
/// from the loop, action runners and the probe never interleave.
///
/// It never waits for the log's reader: lines that find the pipe (or socket,
/// or terminal) full are dropped and counted, and the count is the first
/// line written once there is room again. A slow reader of standard error
/// made the loop wait in `write` with every client behind it, and any device
/// can make log lines (each refused line is one): an audit's reader taking
/// 2 KB/s held every other client for seconds.
final class Logger: Sendable {
    let minimum: LogLevel
    private let descriptor: Int32
    /// Held while a line is made and written; the stamp of the last second
    /// written, which the lines within that second reuse (formatting it cost
    /// as much as the rest of a line: docs/performance.md, issue 25).
    private let lock = Mutex(Stamp())

    init(minimum: LogLevel, descriptor: Int32 = STDERR_FILENO) {
        self.minimum = minimum
        self.descriptor = descriptor
    }

    func enabled(_ level: LogLevel) -> Bool { level >= minimum }

    /// The most bytes of one line before its end is cut (and counted).
    static let maximumLineBytes = 16 << 10

    /// Writes one line. Control characters in `message` (a device name with a
    /// line break, a command's output) are escaped, so nobody can forge lines.
    func log(_ level: LogLevel, _ message: String) {
        guard enabled(level) else { return }
        log([(level, message)])
    }

    /// Writes `lines` (a loop turn's) in order, gathered into as few
    /// `write`s as their size allows: eight devices' edits in one batch were
    /// eight `write`s between their `ok`s and the reading of their next edits.
    func log(_ lines: [(level: LogLevel, message: String)]) {
        lock.withLock { stamp in
            let bytes = stamp.bytes(for: UTCTime.now())
            var chunk: [UInt8] = []
            // Room for the usual turn's lines at once (a line is its message, a stamp and a level).
            chunk.reserveCapacity(min(lines.reduce(0) { $0 + 32 + $1.message.utf8.count }, Self.chunkBytes + 64))
            for (level, message) in lines where enabled(level) {
                let start = chunk.count
                Self.append(level, message, stamp: bytes, to: &chunk)
                // Within PIPE_BUF a pipe takes a write whole, so a reader of the log never sees lines interleaved.
                if start > 0 && chunk.count > Self.chunkBytes {
                    writeAll(chunk[..<start], &stamp)
                    chunk.removeFirst(start)
                }
            }
            writeAll(chunk[...], &stamp)
        }
    }

    /// How many bytes of lines are gathered before a `write` (PIPE_BUF).
    static let chunkBytes = 4096

    /// One line, stamped, levelled, escaped, cut at the backstop and ended, at the end of `line`.
    private static func append(_ level: LogLevel, _ message: String, stamp: [UInt8], to line: inout [UInt8]) {
        let start = line.count
        line.append(contentsOf: stamp)
        line.append(0x20)
        line.append(contentsOf: level.rawValue.utf8)
        line.append(0x20)
        appendEscaped(message, to: &line)
        if line.count - start > maximumLineBytes {
            // A backstop for fields no caller cut (LogField): a line stays readable and the log bounded.
            let whole = line.count - start
            line.removeLast(whole - maximumLineBytes)
            while let last = line.last, last & 0xC0 == 0x80 { line.removeLast() }  // not half a character
            if let last = line.last, last >= 0xC0 { line.removeLast() }
            let cut = whole - (line.count - start)
            line.append(contentsOf: "… (\(cut) more bytes not logged)".utf8)
        }
        line.append(0x0A)
    }

    /// Writes all of `bytes`, retrying after a signal, when the log has room
    /// now; else drops them and counts their lines in `stamp`, and the next
    /// write that finds room says how many went. A log that cannot be written is given up.
    private func writeAll(_ bytes: ArraySlice<UInt8>, _ stamp: inout Stamp) {
        guard !bytes.isEmpty else { return }
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT) != 0 else {
            stamp.dropped += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            return
        }
        if stamp.dropped > 0 {
            var note: [UInt8] = []
            Self.append(.warning, "\(stamp.dropped) log lines were dropped: the log's reader was too slow, and deckd does "
                        + "not wait for it", stamp: stamp.bytes(for: UTCTime.now()), to: &note)
            stamp.dropped = 0
            write(note[...])
        }
        write(bytes)
    }

    private func write(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    func debug(_ message: @autoclosure () -> String) { if enabled(.debug) { log(.debug, message()) } }
    func info(_ message: String) { log(.info, message) }
    func warning(_ message: String) { log(.warning, message) }
    func error(_ message: String) { log(.error, message) }

    static func appendEscaped(_ text: String, to line: inout [UInt8]) {
        // Most lines are printable ASCII, with nothing to escape: their bytes as they are.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            line.append(contentsOf: text.utf8)
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: line.append(contentsOf: "\\n".utf8)
            case 0x0D: line.append(contentsOf: "\\r".utf8)
            case 0x09: line.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029:
                line.append(contentsOf: scalar.escaped(asASCII: true).utf8)
            default:
                UTF8.encode(scalar) { line.append($0) }
            }
        }
    }

    /// The stamp of one second, made once for every line within it.
    struct Stamp {
        /// Lines dropped since the last write, because the log had no room.
        var dropped = 0
        private var second = Int.min
        private var text: [UInt8] = []

        /// `2026-11-29T16:40:00Z` for `seconds`, as bytes to start a line with.
        mutating func bytes(for seconds: Int) -> [UInt8] {
            if seconds != second {
                second = seconds
                text = Array(UTCTime.format(seconds).utf8)
            }
            return text
        }
    }
}

/// `2026-11-29T16:40:00Z`: UTC to the second, as logs and snapshots show time.
enum UTCTime {
    /// Seconds since 1970.
    static func now() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec)
    }

    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
