/// Lines behind a replaceable one (``Connection/sendLatest(_:)``), not framed
/// yet, in order. A newer replaceable line takes the place of the last line
/// when that is the replaceable one; a replaceable line with lines after it
/// stays, since it was current when they were sent (PROTOCOL.md §5: an edit's
/// reply, then the layout, for every edit of a client that sends several at once).
struct HeldLines {
    private var lines: [OutboundLine] = []
    /// Whether the last of `lines` is replaceable.
    private var lastIsReplaceable = false
    /// The bytes the held lines have.
    private(set) var bytes = 0

    var isEmpty: Bool { lines.isEmpty }

    /// Keeps `line` last; a replaceable one takes the place of a replaceable last line.
    mutating func append(_ line: OutboundLine, replaceable isReplaceable: Bool) {
        if isReplaceable, lastIsReplaceable, let older = lines.last {
            lines[lines.count - 1] = line
            bytes += line.count - older.count
            return
        }
        lines.append(line)
        bytes += line.count
        lastIsReplaceable = isReplaceable
    }

    /// Hands over the held lines, in order, and forgets them.
    mutating func take() -> [OutboundLine] {
        defer { removeAll() }
        return lines
    }

    mutating func removeAll() {
        lines = []
        lastIsReplaceable = false
        bytes = 0
    }
}
