import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport

/// Everything that reaches ``HostState`` from outside: what clients send,
/// what the lock probe says, what the disk thread finished. The clock comes
/// in with the inputs that need it (`now`, seconds since 1970).
enum HostInput {
    /// A connection was accepted; `peer` is how logs name it until its hello.
    case opened(ConnectionID, peer: String)
    /// Its `hello` was accepted: `welcome` follows in pipeline order.
    case established(ConnectionID, ClientInfo, pairedName: String?, isControl: Bool, id: RequestID?, level: Int, now: Int)
    /// The client half-closed or sent a line over the limit: it is closed
    /// behind every reply already owed to it.
    case inputEnded(ConnectionID)
    /// The connection closed (`closeReason`: why the host closed it, when it did).
    case closed(ConnectionID, reason: CloseReason, closeReason: String?, now: Int)
    /// A request of an established connection, its rights already checked.
    case request(ConnectionID, ClientMessage)
    /// A line that could not be decoded or may not be sent (the error names
    /// the line's `type` when it had a readable one).
    case refusedLine(ConnectionID, ProtocolError)
    /// A `profile` button's press reached its turn in the pipeline.
    case profileButton(String, press: ActionRequest)
    /// A press or a lift of held plugin buttons reached its turn in the pipeline.
    case holds(HostState.HoldChange)
    /// The lock probe's answer changed.
    case probe(LockProbe.Result)
    /// A disk job the state asked for (``HostAction/disk(_:)``) finished.
    case diskFinished(JobID, DiskResult)
}

/// Names one disk job, so its result finds the request it answers.
struct JobID: Hashable, Comparable {
    let rawValue: Int
    static func < (lhs: JobID, rhs: JobID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Work for the disk thread, by what it reads (no closure: a test compares it).
struct DiskJob: Equatable {
    enum Work: Equatable {
        /// One generation of a profile (`restore`).
        case readSnapshot(profile: String, generation: Int)
        /// A profile's history, newest first (`snapshots`).
        case listSnapshots(profile: String)
        /// The paired devices, written as they are now (`pair`, `unpair`).
        case saveTokens(TokenStore, path: String)
        /// A profile's layout as PROFILE.md §5 resolves it (its file, its newest snapshot, the rebase).
        case resolve(String, ProfileCatalog)
    }

    let id: JobID
    /// The client whose reading pauses until the result is handled (so its
    /// replies stay in request order).
    let sender: ConnectionID?
    let work: Work
}

/// What a ``DiskJob`` found.
enum DiskResult {
    case snapshot(Result<Snapshot, SnapshotError>)
    case listing(Result<SnapshotListing, SnapshotError>)
    case saved(Result<Void, HostError>)
    case resolution(Result<ProfileResolution?, HostError>)
}
