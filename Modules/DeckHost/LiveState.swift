#if canImport(FoundationEssentials)
import FoundationEssentials  // Date, a snapshot's time
#else
import Foundation
#endif
import DeckModel
import DeckProtocol
import DeckSnapshots
import DeckTransport

/// The live layout at one revision: which profile, which layout (encoded
/// once, for its broadcast, every welcome and its snapshot), and the profile
/// file version it descends from.
struct LiveState: Sendable {
    var profile: String { storage.profile }
    var revision: Int { storage.revision }
    /// The layout with its JSON.
    var encoded: EncodedLayout { storage.encoded }
    /// The file the layout descends from (what snapshots record as `source`);
    /// nil for a layout no file produced.
    var source: SnapshotSource? { storage.source }
    /// The client edits made since `source` was last loaded (PROFILE.md §5),
    /// which a rebase replays when the file changes.
    var edits: [DeckEdit] { storage.edits }

    /// One reference: a state rides in every commit, outcome, pipeline entry
    /// and action on its way to the disk and back, and each copy of its five
    /// fields was a handful of retains and an outlined copy.
    private let storage: Storage

    private final class Storage: Sendable {
        let profile: String
        let revision: Int
        let encoded: EncodedLayout
        let source: SnapshotSource?
        let edits: [DeckEdit]

        init(profile: String, revision: Int, encoded: EncodedLayout, source: SnapshotSource?, edits: [DeckEdit]) {
            self.profile = profile
            self.revision = revision
            self.encoded = encoded
            self.source = source
            self.edits = edits
        }
    }

    /// `previous`: the revision this one is made from, whose unchanged pages' JSON is copied.
    init(profile: String, revision: Int, layout: DeckLayout, source: SnapshotSource?, edits: [DeckEdit] = [],
         previous: EncodedLayout? = nil) {
        storage = Storage(profile: profile, revision: revision, encoded: EncodedLayout(layout, reusing: previous),
                          source: source, edits: edits)
    }

    /// The layout the file gave before the recorded edits were made.
    var fileLayout: DeckLayout { EditRebase.base(of: layout, undoing: edits) }

    var layout: DeckLayout { encoded.layout }

    /// This state as a new snapshot generation (its JSON is not encoded
    /// again), written at `time` (now unless given: the rules pass their clock's).
    func snapshot(reason: String, time: Date = Date()) -> SnapshotEntry {
        SnapshotEntry(profile: profile, revision: revision, reason: reason, source: source, layout: encoded, edits: edits,
                      time: time)
    }
}

/// The lines that carry one revision's layout: the `layout` broadcast,
/// made once and shared by every connection, and each `welcome`, which
/// copies the revision's layout JSON instead of encoding the layout again.
struct LayoutLines {
    let state: LiveState
    /// The slots of press-and-hold plugin commands (PROTOCOL.md §5): not
    /// part of the layout, so they can change without a new revision.
    let holdSlots: [DeckSlot]
    /// `{"type":"layout",…}` for every client.
    let broadcast: OutboundLine

    init(_ state: LiveState, holdSlots: [DeckSlot] = []) throws(TransportError) {
        self.state = state
        self.holdSlots = holdSlots
        broadcast = try OutboundLine(HostMessage.layout(profile: state.profile, revision: state.revision, layout: state.layout,
                                                        holdSlots: holdSlots)
            .line(reusing: state.encoded))
    }

    /// The `welcome` line for a new client; `faces` only at level 8 and up.
    func welcome(id: RequestID?, level: Int, host: HostInfo, locked: Bool, token: String? = nil,
                 faces: [ButtonFace] = []) -> [UInt8] {
        HostMessage.welcome(id: id, Welcome(protocolLevel: level, host: host, profile: state.profile, revision: state.revision,
                                            locked: locked, layout: state.layout, holdSlots: holdSlots, token: token,
                                            faces: level >= 8 ? faces : [])).line(reusing: state.encoded)
    }

    /// The `layout` line with `faces` (level 8 and up), when there are any.
    func broadcast(faces: [ButtonFace]) throws(TransportError) -> OutboundLine {
        guard !faces.isEmpty else { return broadcast }
        return try OutboundLine(HostMessage.layout(profile: state.profile, revision: state.revision, layout: state.layout,
                                                   holdSlots: holdSlots, faces: faces).line(reusing: state.encoded))
    }
}

extension LiveState: Equatable {
    /// Two states are the same revision of the same layout from the same
    /// file with the same edits (the encoded JSON follows from the layout);
    /// a copy of one state shares its storage and is not compared at all.
    static func == (lhs: LiveState, rhs: LiveState) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.profile == rhs.profile && lhs.revision == rhs.revision && lhs.layout == rhs.layout && lhs.source == rhs.source
            && lhs.edits == rhs.edits
    }
}
