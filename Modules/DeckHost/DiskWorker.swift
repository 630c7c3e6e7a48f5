import DeckSnapshots
import Dispatch

/// The one thread that touches the state folder: snapshot writes (group
/// commits), snapshot reads, listings, profile scans and the token file.
///
/// Jobs run one at a time in the order given, so a read never sees half of
/// a batch and the store's lock is never contended. Results go back to the
/// event loop through the callback the caller passes (which hands them over
/// with `EventLoop.execute`).
final class DiskWorker: Sendable {
    let store: SnapshotStore
    private let queue = DispatchQueue(label: "deckd.disk", qos: .userInitiated)

    init(store: SnapshotStore) {
        self.store = store
    }

    /// Writes `entries` as one group commit, records the profile of the last
    /// written one as the last live profile, and reports the commit.
    /// `markerFailure` says why the last-profile marker could not be written.
    func write(_ entries: [SnapshotEntry],
               then finished: @escaping @Sendable (_ commit: SnapshotCommit, _ markerFailure: String?) -> Void) {
        queue.async { [store] in
            let commit = store.write(entries)
            var markerFailure: String?
            if let last = commit.written.last {
                do {
                    try store.setLastProfile(last.profile)
                } catch {
                    markerFailure = "\(error)"
                }
            }
            finished(commit, markerFailure)
            // After the commit is handed back, so a checkpoint never delays an `ok`.
            store.maintain()
        }
    }

    /// Runs `job` on the disk thread and hands its result to `finished` there.
    func run<Result: Sendable>(_ job: @escaping @Sendable (SnapshotStore) -> Result,
                               then finished: @escaping @Sendable (Result) -> Void) {
        queue.async { [store] in finished(job(store)) }
    }

    /// Waits until every job handed over so far has finished, checkpoints the
    /// journal, and waits for old generations' deletions (for shutdown).
    func drain() {
        queue.sync {}
        // The newest generation as a plain file: the next start reads it without the journal.
        store.checkpoint()
        store.finishDeletions()
    }
}
