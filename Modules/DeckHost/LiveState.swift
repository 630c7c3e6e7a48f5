import DeckModel
import DeckProtocol
import DeckSnapshots
import DeckTransport

/// The live layout at one revision: which profile, which layout, and the
/// profile file version it descends from.
struct LiveState: Sendable, Equatable {
    var profile: String
    var revision: Int
    var layout: DeckLayout
    /// The file the layout descends from (what snapshots record as `source`);
    /// nil for a layout no file produced.
    var source: SnapshotSource?

    /// This state as a new snapshot generation.
    func snapshot(reason: String) -> SnapshotEntry {
        SnapshotEntry(profile: profile, revision: revision, reason: reason, source: source, layout: layout)
    }
}

/// The lines that carry one revision's layout, encoded once and shared by
/// every connection: the `layout` broadcast, and the layout JSON that every
/// `welcome` of this revision splices in instead of encoding the layout again.
struct LayoutLines {
    let revision: Int
    let profile: String
    /// `{"type":"layout",…}` for every client (encoded once per revision).
    let broadcast: OutboundLine
    private let bytes: [UInt8]
    /// Where the layout object sits in `bytes`; nil if splicing is not possible.
    private let layoutRange: Range<Int>?

    /// The layout object of a one-slot empty layout, as DeckProtocol writes it:
    /// the marker by which a welcome built around it is spliced.
    private static let placeholder = DeckLayout.empty(slotsPerPage: 1)
    private static let placeholderJSON: [UInt8] = {
        let line = HostMessage.layout(profile: "", revision: 0, layout: placeholder).line()
        // `…,"layout":{…}}\n`: the object runs from after `"layout":` to before `}\n`.
        let key = Array(#""layout":"#.utf8)
        guard let start = line.lastRange(of: key)?.upperBound, line.count >= start + 2 else { return [] }
        return Array(line[start..<(line.count - 2)])
    }()

    init(_ state: LiveState) throws(TransportError) {
        revision = state.revision
        profile = state.profile
        let line = HostMessage.layout(profile: state.profile, revision: state.revision, layout: state.layout).line()
        broadcast = try OutboundLine(line)
        bytes = line
        // The layout is the last member: everything before it is the same as
        // in the placeholder's line, and `}\n` follows it.
        let head = HostMessage.layout(profile: state.profile, revision: state.revision, layout: Self.placeholder).line()
        let headCount = head.count - Self.placeholderJSON.count - 2
        if !Self.placeholderJSON.isEmpty, headCount > 0, line.count >= headCount + 2,
           head[headCount...].starts(with: Self.placeholderJSON), line[..<headCount].elementsEqual(head[..<headCount]) {
            layoutRange = headCount..<(line.count - 2)
        } else {
            layoutRange = nil
        }
    }

    /// The `welcome` line for a new client, with this revision's layout JSON
    /// copied in rather than encoded again (a 12,000-button layout takes
    /// milliseconds to encode; copying it, microseconds).
    func welcome(id: RequestID?, level: Int, host: HostInfo, locked: Bool, layout: DeckLayout) -> [UInt8] {
        guard let layoutRange else {
            return HostMessage.welcome(id: id, Welcome(protocolLevel: level, host: host, profile: profile,
                                                       revision: revision, locked: locked, layout: layout)).line()
        }
        let shell = HostMessage.welcome(id: id, Welcome(protocolLevel: level, host: host, profile: profile, revision: revision,
                                                        locked: locked, layout: Self.placeholder)).line()
        let headCount = shell.count - Self.placeholderJSON.count - 2
        guard headCount > 0, shell[headCount...].starts(with: Self.placeholderJSON) else {
            return HostMessage.welcome(id: id, Welcome(protocolLevel: level, host: host, profile: profile,
                                                       revision: revision, locked: locked, layout: layout)).line()
        }
        var line: [UInt8] = []
        line.reserveCapacity(headCount + layoutRange.count + 2)
        line += shell[..<headCount]
        line += bytes[layoutRange]
        line += shell[(shell.count - 2)...]
        return line
    }
}

private extension Array where Element == UInt8 {
    func lastRange(of needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var start = count - needle.count
        while start >= 0 {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
            start -= 1
        }
        return nil
    }
}
