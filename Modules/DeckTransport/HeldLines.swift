/// Lines behind a replaceable one (``Connection/sendLatest(_:)``), not framed
/// yet, in order; a newer replaceable line takes the older one's place.
struct HeldLines {
    /// nil where a newer replaceable line took an older one's place.
    private var lines: [OutboundLine?] = []
    /// Where the replaceable line is in `lines`.
    private var replaceable: Int?
    /// The bytes the held lines have.
    private(set) var bytes = 0

    var isEmpty: Bool { lines.isEmpty }

    /// Keeps `line` last; a replaceable one drops the replaceable line held before.
    mutating func append(_ line: OutboundLine, replaceable isReplaceable: Bool) {
        if isReplaceable {
            if let index = replaceable, let older = lines[index] {
                lines[index] = nil
                bytes -= older.count
            }
            replaceable = lines.count
        }
        lines.append(line)
        bytes += line.count
    }

    /// Hands over the held lines, in order, and forgets them.
    mutating func take() -> [OutboundLine] {
        let taken = lines.compactMap { $0 }
        removeAll()
        return taken
    }

    mutating func removeAll() {
        lines = []
        replaceable = nil
        bytes = 0
    }
}
