import DeckModel
import DeckProtocol

/// What a rebase of client edits onto a changed profile file kept and
/// dropped (PROFILE.md §5), in the words the log, `status` and the `reload`
/// event use. `generation` is the one just before the reload, which
/// `deckctl restore` brings back.
struct RebaseReport: Sendable, Equatable {
    var profile: String
    var file: String
    var kept: Int
    /// Edits the file already holds (`deckctl export` saved over it).
    var adopted: Int
    var dropped: [EditRebase.Dropped]
    var generation: Int

    init(profile: String, file: String, rebase: EditRebase, generation: Int) {
        self.profile = profile
        self.file = file
        self.kept = rebase.kept.count
        self.adopted = rebase.adopted.count
        self.dropped = rebase.dropped
        self.generation = generation
    }

    /// The `dropped` entries of the `reload` event.
    var events: [DroppedEdit] {
        dropped.map {
            let slot = $0.edit.changes.first?.slot
            return DroppedEdit(button: $0.edit.button?.name, page: slot?.page ?? 0, index: slot?.index ?? 0,
                               edit: $0.edit.summary, reason: $0.reason, generation: generation)
        }
    }

    /// One sentence per dropped edit, for the log and `status`.
    var sentences: [String] {
        events.map { "\(file) changed: a device edit of '\(profile)' was \($0.description)" }
    }

    /// `kept 2 device edits made since the file was last loaded, dropped 1`,
    /// or `the file holds the 3 device edits made since it was last loaded`.
    var summary: String {
        if adopted > 0 {
            return "the file holds the \(adopted) device \(adopted == 1 ? "edit" : "edits") made since it was last loaded"
        }
        return "kept \(kept) device \(kept == 1 ? "edit" : "edits") made since the file was last loaded"
            + (dropped.isEmpty ? "" : ", dropped \(dropped.count)")
    }
}
