import DeckModel
import DeckProfiles
import DeckProtocol
import DeckTransport
import LockGate

/// The host's rules as one value: every input goes through ``handle(_:)``,
/// which changes the state and returns what the shell (`HostCore`) must do,
/// in order. Nothing here touches a socket, the disk, a thread or the clock
/// (docs/host.md, "The host's structure").
struct HostState {
    /// One per open connection.
    var sessions: [ConnectionID: SessionState] = [:]
    /// The live layout: committed, head, the committed revision's lines and the generation it was written as.
    var live: LiveLayout
    /// The road from accepted to acknowledged: pipeline, gather, throttle.
    var commits: CommitScheduler<Outcome>
    /// The paired devices, when each was last seen, the pairing codes and the failed-attempt limit.
    var auth: DeviceAuth
    /// The manual lock and the probe's.
    var lock = LockState()
    /// The plugin buttons each device holds down.
    var holds = HeldButtons()
    /// The layouts folder as last scanned (its settings checked against the plugins' manifests as it changes).
    var catalog: ProfileCatalog {
        didSet { plugins.check(catalog) }
    }
    /// The installed plugins' manifests, what each plugin was told, the settings problems.
    var plugins = InstalledPlugins()
    /// What `status` shows in `notices`.
    var notices: Notices
    /// Running, stopping, stopped (and the exit status).
    var shutdown = Shutdown()
    /// Every plugin process is gone, as the shell last reported while stopping.
    var pluginsStopped = false
    /// The buttons' live faces (docs/faces.md).
    var faces: FaceTable
    /// The live layout's `follow` commands (docs/faces.md §6), driven once the runner started.
    var follows = FollowMachine()
    var followsRunning = false
    /// Commits not yet followed by the plugins and the follow commands
    /// (``HostInput/followCommitted``): nil for none, else whether one
    /// changed the profile or its source (every follow restarts).
    var followOwed: Bool?
    /// The committed layout's `follow` commands page by page (a commit reads the pages it changed).
    var followPages = PageReadings<FollowSpec>()
    /// The zero of the follows' clock.
    let started: ContinuousClock.Instant
    /// Which scan of the layouts folder may go live: a newer save supersedes
    /// a watcher's scan still in progress.
    var reloads = ReloadGenerations()
    /// The largest layout JSON an edit may make (`--max-message`'s sibling, HostConfiguration).
    let maxLayoutBytes: Int
    /// The layouts folder, which problems are named relative to.
    let layoutsPath: String
    /// The clocks and the randomness (tokens, pairing codes).
    var environment: HostEnvironment

    /// Disk jobs asked for and not finished, with what their result answers.
    private(set) var waiting: [JobID: Waiting] = [:]
    private var nextJob = 0

    /// What a disk job's result continues.
    enum Waiting: Equatable {
        case restore(ConnectionID, RequestID?, profile: String, generation: Int)
        case snapshots(ConnectionID, RequestID?, profile: String, known: Bool)
        case tokens(ConnectionID, RequestID?, name: String, TokensChange, undo: DeviceAuth.Undo)
        case resolve(String, Resolving)
        case reload(ConnectionID?, RequestID?, ReloadGenerations.Ticket)
    }

    init(live: LiveLayout, commits: CommitScheduler<Outcome>, auth: DeviceAuth, catalog: ProfileCatalog, notices: Notices,
         maxLayoutBytes: Int, layoutsPath: String = "", environment: HostEnvironment = HostEnvironment()) {
        self.live = live
        self.commits = commits
        self.auth = auth
        self.catalog = catalog
        self.notices = notices
        self.maxLayoutBytes = maxLayoutBytes
        self.environment = environment
        self.layoutsPath = layoutsPath
        self.faces = FaceTable(layout: live.committed.layout)
        self.started = environment.instantNow()
    }

    /// True from the start of the stop on.
    var stopping: Bool { shutdown.isStopping }

    /// The one entry point: the state after `input`, and what to do.
    mutating func handle(_ input: HostInput) -> [HostAction] {
        noted(decide(input))
    }

    /// The sentences `status` shows (`.note`) are kept as they are decided;
    /// the shell only logs them.
    mutating func noted(_ actions: [HostAction]) -> [HostAction] {
        for case .note(let notice, _) in actions { notices.note(notice) }
        return actions
    }

    private mutating func decide(_ input: HostInput) -> [HostAction] {
        switch input {
        case let .opened(connection, peer, host):
            sessions[connection] = SessionState(peer: peer, host: host)
            return []
        case let .hello(connection, attempt):
            return hello(attempt, from: connection)
        case let .helloRefused(connection, error):
            return refuseConnection(connection, error)
        case let .request(connection, message):
            return request(message, from: connection)
        case .inputEnded(let connection):
            return [.commit(Commit(Outcome([.closeAfterFlush(connection)])))]
        case let .closed(connection, reason, closeReason, now):
            return commitsLeft(by: connection) + closed(connection, reason: reason, closeReason: closeReason, now: now)
        case let .refusedLine(connection, error):
            return refusedLine(error, from: connection)
        case .probe(let result):
            return probeReported(result)
        case .holds(let change):
            return holdsChanged(change)
        case let .profileButton(name, press):
            return switchProfile(to: name, reason: "profile", connection: nil, id: nil, press: press)
        case let .diskFinished(job, result):
            guard let waiting = waiting.removeValue(forKey: job) else { return [] }
            return diskFinished(waiting, result)
        case .profilesChanging:
            reloads.saveSeen()
            return []
        case .profilesChanged:
            return stopping ? [] : [reload(requestedBy: nil, id: nil, plugins: false)]
        case .signal(let signal):
            return received(signal)
        case .stopProgress(let pluginsStopped):
            return stopProgressed(pluginsStopped: pluginsStopped)
        case let .pluginRestarted(connection, id, plugin, result):
            return pluginRestarted(plugin, result, id: id, for: connection)
        case .plugin(let input):
            return plugin(input)
        case .follow(let input):
            return follow(input)
        case let .batchFinished(receipts, failure, markerFailure, notices):
            return batchFinished(receipts: receipts, failure: failure, markerFailure: markerFailure, notices: notices)
        case .releaseHeldCommits:
            return releaseHeldCommits()
        case .commitTimerFired(let generation):
            return commitTimerFired(generation)
        case .timerFired(let timer):
            return timerFired(timer)
        case let .actionFinished(request, outcome):
            return Self.actionEnded(request, outcome)
        case .folderWatch(let news):
            return folderWatch(news)
        case let .log(level, message):
            return [.log(level, message)]
        case let .committed(state, written):
            return committed(state, written: written)
        case .followCommitted:
            return followCommitted()
        case let .pluginsStarted(catalog, folders):
            return pluginsStarted(catalog, folders: folders)
        }
    }

    /// Numbers a disk job and remembers what its result continues.
    mutating func disk(_ work: DiskJob.Work, for sender: ConnectionID?, then waiting: Waiting) -> HostAction {
        nextJob += 1
        let id = JobID(rawValue: nextJob)
        self.waiting[id] = waiting
        return .disk(DiskJob(id: id, sender: sender, work: work))
    }

    /// A refusal of `connection`'s request in the protocol's one order (``Effect/refusal(_:request:to:by:who:problems:then:)``).
    func refusal(_ error: ProtocolError, request: String, to connection: ConnectionID, problems: [Problem]? = nil,
                 then layout: RefusalLayout = .none) -> [Effect] {
        let session = sessions[connection]
        return Effect.refusal(error, request: request, to: connection, by: session?.info, who: session?.who ?? "a client",
                              problems: problems, then: layout)
    }

    /// A refusal as one commit from its sender.
    func refused(_ error: ProtocolError, request: String, by connection: ConnectionID,
                 then layout: RefusalLayout = .none) -> HostAction {
        .commit(Commit(Outcome(refusal(error, request: request, to: connection, then: layout)), sender: connection))
    }

    /// `'Files' by Kim's iPhone` style suffix ("" for no client).
    func byline(_ connection: ConnectionID?) -> String {
        connection.flatMap { sessions[$0] }?.byline ?? ""
    }
}

