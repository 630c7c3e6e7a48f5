import DeckProfiles
import Synchronization

/// Which scan of the layouts folder may go live, so that a newer save
/// supersedes a scan still in progress (a 200,000-key file took a minute to
/// parse, and a good save behind it waited all that time on the disk thread).
///
/// Every reload asked for, and every save the watcher sees, takes the next
/// generation. A scan the watcher started (nobody waits for its reply) gives
/// up at its next safe point once a newer generation exists, and its result
/// is discarded if it finished anyway: the newer scan reads every file again,
/// so nothing is lost. A
/// `deckctl reload` or SIGHUP is answered with what it read, so its scan runs
/// to the end and its result applies; the scans run in order on the disk
/// thread, so a newer one always applies after it.
struct ReloadGenerations {
    /// The newest generation asked for, shared with the disk thread's scans.
    private let newest = Latest()
    private var current = 0

    /// What to do with a finished scan.
    enum Verdict: Equatable {
        /// Apply it: it is the newest, or someone waits for its reply.
        case apply
        /// Drop it: a newer scan is queued and nobody waits for this one.
        case discard
    }

    /// One reload asked for: its generation and whether it may give up.
    struct Ticket: Sendable {
        let generation: Int
        /// False when someone waits for the reply (it never gives up).
        let abandonable: Bool
        fileprivate let newest: Latest

        /// True once a newer reload was asked for and this one may give up;
        /// safe to ask from any thread.
        var superseded: Bool {
            abandonable && newest.value.load(ordering: .relaxed) > generation
        }
    }

    /// A new reload: `answered` when someone waits for its reply.
    mutating func requested(answered: Bool) -> Ticket {
        // One per save or request: a 63-bit count does not run out.
        current += 1
        newest.value.store(current, ordering: .relaxed)
        return Ticket(generation: current, abandonable: !answered, newest: newest)
    }

    /// A file of the folder changed (the first events of a save, before the
    /// watcher's settle time): every watcher scan in progress may give up now,
    /// and one that finishes anyway is discarded, since the save's own scan,
    /// asked for once it settles, reads every file again.
    mutating func saveSeen() {
        current += 1
        newest.value.store(current, ordering: .relaxed)
    }

    /// The verdict on a scan that finished (or gave up) under `ticket`.
    func finished(_ ticket: Ticket) -> Verdict {
        ticket.abandonable && ticket.generation < current ? .discard : .apply
    }
}

/// The newest generation, read by scans on the disk thread.
private final class Latest: Sendable {
    let value = Atomic<Int>(0)
}

extension Result where Success == ProfileCatalog?, Failure == DeckProfilesError {
    /// The scan's outcome, or nil when it gave up for a newer one.
    var unwrapped: Result<ProfileCatalog, DeckProfilesError>? {
        switch self {
        case .success(let catalog?): .success(catalog)
        case .success(nil): nil
        case .failure(let error): .failure(error)
        }
    }
}
