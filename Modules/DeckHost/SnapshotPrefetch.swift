import Dispatch
import DeckSnapshots
import DeckTransport
import Synchronization

/// Reads the newest snapshot of the profile start-up will try first while
/// the layouts folder is being parsed, on another core.
///
/// At start both are needed before `deckd ready`: parsing every profile file
/// (~45 ms for a 1,000-page profile) and inflating and checking the newest
/// snapshot (~12 ms for it). Neither needs the other, so they overlap. The
/// profile read ahead is exactly the first one ``StartupPlan/make`` resolves
/// (`--profile`, else the last live one, else `default`), so reading it
/// early has no effect the start would not have had anyway.
final class SnapshotPrefetch: Sendable {
    /// The profile being read.
    let profile: String
    private let result = Mutex<Result<SnapshotReading, SnapshotError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `profile`'s newest snapshot on a thread of its own,
    /// which ends with the read. (Not a Dispatch worker: an idle one lingers
    /// and exits seconds later, a wake-up of an otherwise idle host.) If no
    /// thread can be started, it reads on the calling thread.
    init(store: SnapshotStore, profile: String) {
        self.profile = profile
        let read: @Sendable () -> Void = { [self] in
            let reading = Result { () throws(SnapshotError) in try store.newest(profile: profile) }
            result.withLock { $0 = reading }
            done.signal()
        }
        do {
            try EventLoop.startThread(named: "deckd prefetch", read)
        } catch {
            read()
        }
    }

    /// The reading, once it is done.
    func wait() -> Result<SnapshotReading, SnapshotError> {
        done.wait()
        done.signal()  // a second wait returns at once
        return result.withLock { $0 } ?? .failure(.invalidEntry("the snapshot prefetch ended without a result"))
    }
}
