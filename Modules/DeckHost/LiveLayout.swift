import DeckModel
import DeckSnapshots
import DeckTransport

/// The live layout at its two revisions: `committed` (durable and
/// acknowledged) and `head` (committed plus every accepted change still on
/// its way to disk), with the committed revision's lines encoded once.
///
/// Every new revision is made here, one above `head`, so the rule "a live
/// change is revision + 1 on top of what was accepted before" is written
/// once. Loop-confined; no I/O, so tests drive it directly.
struct LiveLayout {
    /// What `welcome`, `status` and `export` show.
    private(set) var committed: LiveState
    /// What new edits are checked against, so they apply in arrival order.
    private(set) var head: LiveState
    /// The committed revision's layout lines.
    private(set) var lines: LayoutLines
    /// The newest generation on disk that a commit was written as (nil
    /// until a change is committed): a reload's rebase names the one before it.
    private(set) var written: DeckSnapshots.SnapshotInfo?

    init(_ state: LiveState) throws(TransportError) {
        committed = state
        head = state
        lines = try LayoutLines(state)
    }

    /// The revision a change of `head` would make (not yet accepted): the
    /// same profile and source unless given. `edits` are the client edits on
    /// top of the source's layout (PROFILE.md §5), asked of every caller:
    /// each change decides what becomes of them.
    func next(layout: DeckLayout, profile: String? = nil, source: SnapshotSource?? = nil, edits: [DeckEdit]) -> LiveState {
        LiveState(profile: profile ?? head.profile, revision: head.revision + 1, layout: layout,
                  source: source ?? head.source, edits: edits, previous: head.encoded)
    }

    /// `state` (made by ``next(layout:profile:source:edits:)``) becomes `head`; its
    /// write goes to the pipeline, and it is committed once durable.
    mutating func accept(_ state: LiveState) {
        precondition(state.revision == head.revision + 1, "a live change is one revision above head")
        head = state
    }

    /// A change of `head` made and accepted in one step.
    mutating func advance(layout: DeckLayout, profile: String? = nil, source: SnapshotSource?? = nil,
                          edits: [DeckEdit]) -> LiveState {
        let state = next(layout: layout, profile: profile, source: source, edits: edits)
        accept(state)
        return state
    }

    /// `state` is durable (as the generation `written`, when it was a
    /// write): it becomes `committed`, and its lines are encoded. Throws when
    /// the lines cannot be encoded (the old lines stay).
    mutating func commit(_ state: LiveState, written: DeckSnapshots.SnapshotInfo? = nil,
                         holdSlots: [DeckSlot] = []) throws(TransportError) {
        committed = state
        if let written { self.written = written }
        lines = try LayoutLines(state, holdSlots: holdSlots)
    }

    /// The committed revision's lines again with other `holdSlots` (the
    /// plugins changed, the layout did not); false when they were the same.
    mutating func relabel(holdSlots: [DeckSlot]) throws(TransportError) -> Bool {
        guard holdSlots != lines.holdSlots else { return false }
        lines = try LayoutLines(committed, holdSlots: holdSlots)
        return true
    }

    /// The generation just before the newest one committed: the one
    /// `restore` brings back after a reload (0 when none is known).
    var generationBeforeWritten: Int {
        max((written?.generation ?? 1) - 1, 0)
    }

    /// A write failed: every change not on disk is forgotten.
    mutating func rollBack() {
        head = committed
    }

    /// A write failed: every change after `durable` is forgotten. `durable`
    /// is `committed`, or a state written before the failure whose commit
    /// the shell has yet to perform (``HostState/schedule(_:)``).
    mutating func rollBack(to durable: LiveState) {
        head = durable
    }
}
