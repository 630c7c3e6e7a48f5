import DeckModel
import DeckPlugins
import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport

/// Everything that reaches ``HostState`` from outside: what clients send,
/// what the lock probe says, what the disk thread finished. The clock comes
/// in with the inputs that need it (`now`, seconds since 1970).
enum HostInput {
    /// A connection was accepted; `peer` is how logs name it until its hello,
    /// `host` the address failed credentials count against.
    case opened(ConnectionID, peer: String, host: String)
    /// Its first line was a `hello` that decoded: the rules decide its
    /// credentials (``DeviceAuth``); `welcome` follows in pipeline order, or the
    /// refusal and the close.
    case hello(ConnectionID, Handshake.Attempt)
    /// Its first line was no valid `hello` (or one of a kind not allowed there): refused and closed.
    case helloRefused(ConnectionID, ProtocolError)
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
    /// The first events of a save in the layouts folder (before it settles):
    /// a watcher's scan in progress may give up.
    case profilesChanging
    /// A save in the layouts folder settled: the folder is scanned again.
    case profilesChanged
    /// A signal read from the signalfd.
    case signal(HostSignal)
    /// How far the stop is: sent by the shell as the plugins or the disk
    /// finish while stopping (`pluginsStopped`: every plugin process is gone).
    case stopProgress(pluginsStopped: Bool)
    /// The shell tried `restart PLUGIN` for `connection`.
    case pluginRestarted(ConnectionID, RequestID?, plugin: String, PluginRestart)
    /// A plugin's message, or the plugin manager's news about one.
    case plugin(PluginInput)
    /// What the follow runner saw: its start, a child's exit or line, a timer.
    case follow(FollowInput)
    /// The disk thread finished a batch of ``HostAction/writeBatch(_:)``:
    /// `receipts` for the leading writes now durable, `failure` when the rest
    /// were not written, why the last-profile marker could not be written,
    /// and the store's notices.
    case batchFinished(receipts: [DeckSnapshots.SnapshotInfo], failure: (any Error)?, markerFailure: String?,
                       notices: [String])
    /// The stop reached ``StopStep/releaseCommits``: a batch held for the gather goes now.
    case releaseHeldCommits
    /// The gather timer of ``HostAction/armCommitTimer(after:generation:)`` fired.
    case commitTimerFired(Int)
    /// A timer the rules armed (``HostAction/armTimer(_:after:)``) fired.
    case timerFired(HostTimer)
    /// A `run` or `open` action the runner started ended.
    case actionFinished(ActionRequest, ActionOutcome)
    /// What the layouts folder's watch has to say besides a save: files it
    /// waits for, the folder lost or back.
    case folderWatch(FolderWatchNews)
    /// A component's own line for the log (the follow runner's trouble).
    case log(LogLevel, String)
    /// A state reached the disk and its outcome is being performed (before its effects).
    case committed(LiveState, written: DeckSnapshots.SnapshotInfo?)
    /// This turn's replies are written: the plugins and the follow commands
    /// follow the committed layout now (``HostAction/followCommittedAfterReplies``).
    case followCommitted
    /// The plugin manager started with the plugins `catalog` found in `folders`.
    case pluginsStarted(PluginCatalog, folders: [String])
}

/// What the layouts folder's watch reports besides saves (``ProfileWatcher``).
enum FolderWatchNews: Equatable {
    /// The scan waits for these files (still being written) to be closed.
    case waiting([String])
    /// The folder went away and cannot be waited for (the sentence says what to do).
    case lost(String)
    /// A folder of its name is watched again.
    case returned(String)
}

/// The signals the host reads.
enum HostSignal: Equatable {
    /// SIGHUP: reload the profiles and the plugins.
    case hangUp
    /// SIGINT: stop.
    case interrupt
    /// SIGTERM: stop.
    case terminate
}

/// What `restart PLUGIN` found.
enum PluginRestart: Equatable {
    /// The plugin was stopped (and started again if the live layout uses it).
    case restarted
    /// No installed plugin has that id; these are installed.
    case notInstalled(installed: [String])
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
        /// The layouts folder (reusing what `previous` read of unchanged
        /// files), and the plugins folders when `plugins`; `ticket` says
        /// when a newer save supersedes the scan.
        case scanLayouts(ReloadGenerations.Ticket, previous: ProfileCatalog, plugins: Bool)
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
    case scanned(LayoutScan)
}
