import DeckSnapshots
import Dispatch
import Synchronization

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
    /// How long the journal must have had no write before its newest
    /// generation is written as a plain file (``SnapshotStore/checkpoint()``):
    /// PROFILE.md §6 promises plain tools the newest layout as a `.json.gz`,
    /// and a person's edits come seconds apart, so each one soon has its
    /// file; a burst of edits (a script, eight devices) is only appended, and
    /// its last generation gets the file when it ends. Long enough that a
    /// client's next edit of a burst comes first, short enough that someone
    /// who looks after an edit finds it.
    static let idleCheckpointDelay = DispatchTimeInterval.milliseconds(50)
    /// How long the disk must have had no write, after a generation that
    /// has its file, for the next edit's generation to be written as its file
    /// *before* its `ok` (after its record): PROFILE.md §6 says "before the
    /// edit is acknowledged". An edit that finds the disk quiet is not racing
    /// anything, so it pays the file's rename and folder flush (~0.5–3 ms)
    /// and a plain tool finds the file the moment the `ok` arrives: a
    /// person's edits (seconds apart), a script's `deckctl` commands (each a
    /// new process, ~4 ms apart in a release build, measured). A burst — a
    /// client whose next edit follows its `ok` within ~0.5 ms, or several
    /// devices' gathered batches — appends only, as issue 28 asks, and stays
    /// a burst until the idle checkpoint ends it, so a stall inside it (a
    /// slow `fdatasync`, a descheduled client) does not cost a file.
    static let quietBeforeAFileFirst = DispatchTimeInterval.milliseconds(2)
    /// When the last write ended and whether an idle check is scheduled;
    /// touched only by jobs on `queue` (the lock is never contended).
    private let idle = Mutex(IdleState())

    private struct IdleState {
        var lastWrite = DispatchTime.now()
        /// When the last commit was handed back: the quiet before the next
        /// edit is counted from it, not from the segment work after it (its
        /// zeros, ~1 ms), which made a script's next command look like a burst.
        var lastCommit = DispatchTime.now()
        var checkScheduled = false
        /// Drained for shutdown: a check still scheduled does nothing.
        var stopped = false
    }

    init(store: SnapshotStore) {
        self.store = store
    }

    /// Writes `entries` as one group commit, records the profile of the last
    /// written one as the last live profile, and reports the commit.
    /// `markerFailure` says why the last-profile marker could not be written.
    func write(_ entries: [SnapshotEntry],
               then finished: @escaping @Sendable (_ commit: SnapshotCommit, _ markerFailure: String?) -> Void) {
        queue.async { [store] in
            // Inside a burst the newest generation is a record only, until the idle checkpoint.
            let fileFirst = self.idle.withLock { DispatchTime.now() >= $0.lastCommit + Self.quietBeforeAFileFirst }
                && store.newestGenerationsHaveFiles
            let commit = store.write(entries)
            // Before the `ok`: the newest generation as its file (a no-op
            // without a journal, where every generation is a file already).
            if fileFirst, !commit.written.isEmpty { store.checkpoint() }
            var markerFailure: String?
            if let last = commit.written.last {
                do {
                    try store.setLastProfile(last.profile)
                } catch {
                    markerFailure = "\(error)"
                }
            }
            finished(commit, markerFailure)
            self.idle.withLock { $0.lastCommit = .now() }
            // After the commit is handed back, so a segment's checkpoint and
            // its zeros never delay an `ok`.
            store.maintain()
            self.wroteJustNow()
        }
    }

    /// At start: a newest generation recovered from the journal after a
    /// crash is a record only. It gets its file once the disk is idle, as
    /// after any write, so that plain tools find the newest layout (PROFILE.md
    /// §6) and so does a deckd from before the journal, which reads files
    /// only: going back to one after a crash resumed an older file and
    /// silently lost the edits after it (an upgrade audit's finding).
    func checkpointWhenIdle() {
        queue.async { [store] in
            if !store.newestGenerationsHaveFiles { self.wroteJustNow() }
        }
    }

    /// Notes a write; schedules one idle check unless one is pending (a
    /// burst keeps one timer, not one per batch).
    private func wroteJustNow() {
        let schedule = idle.withLock { state in
            state.lastWrite = .now()
            defer { state.checkScheduled = true }
            return !state.checkScheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + Self.idleCheckpointDelay) { self.idleCheck() } }
    }

    /// On `queue`: checkpoints once the journal has been idle for the
    /// delay, or looks again when a write came meanwhile.
    private func idleCheck() {
        let (due, stopped) = idle.withLock { state in (state.lastWrite + Self.idleCheckpointDelay, state.stopped) }
        guard !stopped else { return }
        if DispatchTime.now() < due {
            queue.asyncAfter(deadline: due) { self.idleCheck() }
            return
        }
        idle.withLock { $0.checkScheduled = false }
        store.checkpoint()
    }

    /// Runs `job` on the disk thread and hands its result to `finished` there.
    func run<Result: Sendable>(_ job: @escaping @Sendable (SnapshotStore) -> Result,
                               then finished: @escaping @Sendable (Result) -> Void) {
        queue.async { [store] in finished(job(store)) }
    }

    /// Waits until every job handed over so far has finished, checkpoints the
    /// journal, and waits for old generations' deletions (for shutdown).
    func drain() {
        queue.sync { idle.withLock { $0.stopped = true } }
        // The newest generation as a plain file: the next start reads it without the journal.
        store.checkpoint()
        store.finishDeletions()
    }
}
