#if canImport(FoundationEssentials)
import FoundationEssentials  // Data, as the transport delivers lines
#else
import Foundation
#endif
import DeckModel
import DeckPlugins
import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport
import DeckWeb
import LockGate

/// The host's I/O shell, owned by the event loop's thread: the sessions'
/// sockets and sending to them, the loop, the services it was started with
/// (the configuration, the log, the disk thread, the runner), the inputs
/// (the listeners and how they are reached, signals, the folder watch, the
/// lock probe, the plugins), and ``HostState``, which decides. Inputs go to
/// `state.handle`; the ``HostAction``s it returns are applied in order
/// (docs/host.md, "The host's structure"). Nothing here blocks: disk work
/// goes to the ``DiskWorker``, actions to the ``ActionRunner``, and their
/// results come back through the ``inbox`` as inputs.
final class HostCore: HostInputSink {
    /// The configuration, the logger, the disk thread and the services.runner.
    let services: HostServices
    /// The thread this core is confined to: every socket, timer and result comes back on it.
    let loop: EventLoop
    /// The listeners and their reachability, the signalfd, the folder watch,
    /// the lock probe and the plugins (set in `Host.start`).
    var inputs = HostInputs()

    /// One per open connection, device or control client: its socket,
    /// handshake and reading (who it is lives in `state.sessions`).
    var sessions: [ConnectionID: Session] = [:]
    /// The rules and every value they decide on (``HostState``).
    var state: HostState
    /// Actions waiting to be applied: one applied may lead to another input,
    /// whose actions queue behind it instead of running inside it.
    private var queued = ActionQueue()
    /// The disk jobs in flight that hold a sender's reading, by job.
    private var diskHolds: [JobID: ConnectionID] = [:]
    /// The gather timer the rules armed last (``HostAction/armCommitTimer(after:generation:)``).
    private var commitTimer: LoopTimer?
    /// Log lines of this turn, written after its output (``log(_:_:)``).
    private lazy var pendingLog = PendingLog(logger: services.logger)
    /// The images faces show, which the web listener serves at `/faces/`.
    let faceImages = FaceImageStore()
    /// The one channel the components report through (``HostInbox``): they
    /// hold this, never the core.
    private(set) lazy var inbox = HostInbox(self, loop: loop)

    init(services: HostServices, loop: EventLoop, state: LiveState, catalog: ProfileCatalog, tokens: TokenStore,
         notices: [String]) throws(TransportError) {
        self.services = services
        self.loop = loop
        self.state = HostState(live: try LiveLayout(state),
                               commits: CommitScheduler(window: services.configuration.gatherWindow),
                               auth: DeviceAuth(tokens: tokens, path: services.configuration.state + "/tokens.json",
                                                pairingLifetime: services.configuration.pairingLifetime),
                               catalog: catalog, notices: Notices(start: notices),
                               maxLayoutBytes: services.configuration.maxLayoutBytes,
                               layoutsPath: services.configuration.layouts)
    }

    // What the shell reads of the rules' values to write its lines; it
    // changes none of them (every change is HostState's).
    var live: LiveLayout { state.live }
    var lock: LockState { state.lock }
    /// The buttons' live faces (docs/faces.md), which the rules drive.
    var faces: FaceTable { state.faces }

    /// The host as `welcome` and `status` name it.
    var hostInfo: HostInfo { HostInfo(version: Host.version) }
    /// The layouts folder.
    var folder: ProfileFolder {
        ProfileFolder(path: services.configuration.layouts, maxLayoutBytes: services.configuration.maxLayoutBytes)
    }
    /// True from the start of the stop on.
    var stopping: Bool { state.stopping }


    // MARK: Applying what the rules decided

    /// Hands `input` to the rules (the commit pipeline's part decided too,
    /// ``HostState/process(_:)``) and applies what they return, in order.
    func handle(_ input: HostInput) {
        apply(state.process(input))
    }

    /// An input a component posted through the ``inbox``.
    /// Two inputs carry the shell's own bookkeeping after the rules: a disk
    /// job's end resumes its sender's reading (the hold it took), and a
    /// batch's end may be the stop's progress.
    func receive(_ input: HostInput) {
        handle(input)
        switch input {
        case .diskFinished(let job, _):
            if let id = diskHolds.removeValue(forKey: job) { sessions[id]?.release(.disk) }
        case .batchFinished:
            stopProgressed()
        default:
            break
        }
    }

    /// Hands `input` to the rules and performs its actions at once, where
    /// they must keep their place among an outcome's effects (the `up` of a
    /// lifted button between the lock's broadcast and its event). Only for
    /// inputs whose actions never enter the pipeline (logs, effects).
    private func handleInPlace(_ input: HostInput) {
        for action in state.process(input) { perform(action) }
    }

    /// Applies `actions` in order; actions that come from applying one of
    /// them wait behind the rest (no re-entrancy).
    func apply(_ actions: [HostAction]) {
        guard queued.enqueue(actions) else { return }
        while let action = queued.next() { perform(action) }
    }

    func perform(_ action: HostAction) {
        switch action {
        case .commit, .heard:
            // Entries for the pipeline, which HostState.process hands to the
            // scheduler before any action reaches here.
            apply(state.schedule([action]))
        case .writeBatch(let batch):
            let inbox = self.inbox
            services.disk.write(batch) { commit, markerFailure in
                inbox.post(commit, fromAnyThread: { commit in
                    .batchFinished(receipts: commit.written, failure: commit.failure,
                                   markerFailure: markerFailure, notices: commit.notices.map(\.message))
                })
            }
        case let .outcome(outcome, written):
            perform(outcome, written: written)
        case let .armCommitTimer(delay, generation):
            commitTimer?.cancel()
            let inbox = self.inbox
            commitTimer = loop.schedule(after: delay) { inbox.post(.commitTimerFired(generation)) }
        case .cancelCommitTimer:
            commitTimer?.cancel()
            commitTimer = nil
        case let .resumeReading(connection, reason):
            sessions[connection]?.release(reason)
        case let .log(level, message):
            // The one place the host writes its log (docs/host.md, "Logging").
            log(level, message)
        case let .note(message, level):
            // HostState keeps the notice for `status`; here it is only logged.
            log(level, message)
        case let .admit(connection, access, token):
            admit(connection, access, issuedToken: token)
        case let .refuseConnection(connection, error):
            refuseConnection(connection, error)
        case .disk(let job):
            runOnDisk(job)
        case .perform(let effect):
            perform(effect)
        case let .pauseReading(connection, reason):
            sessions[connection]?.hold(reason)
        case .applyPlugins(let catalog):
            inputs.plugins?.reload(catalog)
        case let .pluginButtons(plugin, buttons):
            inputs.plugins?.setButtons(buttons, for: plugin)
        case .followCommittedAfterReplies:
            guard loop.inEventLoop else { return handle(.followCommitted) }
            loop.afterFlush { [weak self] in self?.handle(.followCommitted) }
        case let .restartPlugin(plugin, reset, connection, id):
            let result: PluginRestart = if let plugins = inputs.plugins, plugins.restart(plugin, reset: reset) {
                .restarted
            } else {
                .notInstalled(installed: inputs.plugins?.catalog.manifests.map(\.id) ?? [])
            }
            handle(.pluginRestarted(connection, id, plugin: plugin, result))
        case let .armTimer(timer, delay):
            let inbox = self.inbox
            _ = loop.schedule(after: delay) { inbox.post(.timerFired(timer)) }
        case .stop(let step):
            perform(step)
        case .face(let action):
            perform(action)
        case .follow(let action):
            inputs.follows?.perform(action)
        }
    }

    /// Writes a log line once this turn's replies are written: the line's
    /// `write`, and the wake-up of whoever reads the log, never delay an `ok`
    /// (docs/performance.md, issue 28). Lines keep their order; off the loop
    /// (before it runs, after it stopped) they are written at once.
    private func log(_ level: LogLevel, _ message: String) {
        guard services.logger.enabled(level) else { return }
        guard loop.inEventLoop else { return services.logger.log(level, message) }
        guard pendingLog.add(level, message) else { return }
        let pending = pendingLog
        loop.afterFlush { pending.write() }
    }

    /// Runs a disk job with its sender's reading paused; the result comes
    /// back as an input.
    private func runOnDisk(_ job: DiskJob) {
        let jobID = job.id
        switch job.work {
        case let .readSnapshot(profile, generation):
            onDisk(jobID, for: job.sender.flatMap { sessions[$0] }, { store in
                DiskResult.snapshot(Result { () throws(SnapshotError) in try store.read(profile: profile, generation: generation) })
            })
        case let .saveTokens(store, path):
            onDisk(jobID, for: job.sender.flatMap { sessions[$0] }, { _ in
                DiskResult.saved(Result { () throws(HostError) in try TokenStore.save(store, path: path) })
            })
        case let .resolve(name, catalog):
            onDisk(jobID, for: job.sender.flatMap { sessions[$0] }, { store in
                DiskResult.resolution(Result { () throws(HostError) in try ProfileResolver.resolve(name, catalog: catalog, store: store) })
            })
        case .listSnapshots(let profile):
            onDisk(jobID, for: job.sender.flatMap { sessions[$0] }, { store in
                DiskResult.listing(Result { () throws(SnapshotError) in try store.list(profile: profile) })
            })
        case let .scanLayouts(ticket, previous, plugins):
            // A layouts folder that was replaced where its parent could not be
            // watched is watched again now, if it is back.
            inputs.watcher?.rearm()
            let folder = self.folder
            let scanPlugins = plugins ? pluginScan : nil
            // The disk thread's own progress, logged from there: the rules
            // cannot be asked from another thread (docs/host.md, "Logging").
            let logger = services.logger
            onDisk(jobID, for: job.sender.flatMap { sessions[$0] }, { _ in
                logger.debug("scan \(ticket.generation) of the layouts folder started")
                let profiles = Result { () throws(DeckProfilesError) in
                    try folder.scan(reusing: previous, giveUpWhen: { ticket.superseded }, parsing: { file, bytes in
                        logger.debug("scan \(ticket.generation) parses \(file) (\(bytes) bytes)")
                    })
                }
                return DiskResult.scanned(LayoutScan(profiles: profiles, plugins: scanPlugins?()))
            })
        }
    }

    // MARK: The pipeline

    /// `written`: the generation the outcome's write became on disk, if it had one.
    private func perform(_ outcome: Outcome, written: DeckSnapshots.SnapshotInfo?) {
        if let state = outcome.live {
            // Committed, and followed by the plugins, faces and follows, before its effects.
            handleInPlace(.committed(state, written: written))
        }
        for effect in outcome.effects { perform(effect) }
    }

    func perform(_ effect: Effect) {
        switch effect {
        case let .send(id, message):
            send(message, to: id)
        case let .ok(id, requestID, withRevision):
            send(.ok(id: requestID, revision: withRevision ? live.committed.revision : nil), to: id)
        // Layouts with sendLatest: one not yet written to a client is replaced
        // by the newer (PROTOCOL.md §5), so refusals cannot pile them up.
        case .layoutTo(let id):
            var lines = FacedLayoutLines()
            if let session = sessions[id] { sendLayout(to: session, reusing: &lines) }
        case .broadcastLayout:
            var lines = FacedLayoutLines()
            for session in sessions.values where session.receivesBroadcasts {
                sendLayout(to: session, reusing: &lines)
            }
        case .layoutAfterEdit(let senders):
            var lines = FacedLayoutLines()
            for session in sessions.values where session.receivesBroadcasts || senders.contains(session.connection.id) {
                sendLayout(to: session, reusing: &lines)
            }
        case .broadcastLock(let locked):
            broadcast(.lock(locked: locked))
        case .event(let event):
            emit(event)
        case let .log(level, message):
            perform(HostAction.log(level, message))
        case let .rebased(profile, file, rebase, revision, by, log):
            for action in state.rebaseReported(profile: profile, file: file, rebase, revision: revision, by: by, log: log) {
                perform(action)
            }
        case let .welcome(id, requestID, level):
            welcome(id, id: requestID, level: level)
        case .closeAfterFlush(let id):
            sessions[id]?.connection.closeAfterFlush()
        case .closeRevoked(let name):
            for device in sessions.values where state.sessions[device.connection.id]?.pairedName == name {
                device.closeReason = "unpaired"
                device.connection.closeAfterFlush()
            }
        case .subscribe(let id):
            guard let session = sessions[id] else { return }
            session.subscribed = true
            session.receivesBroadcasts = true
        case .titles(let id):
            sendTitles(to: id)
        case let .paired(id, requestID, name, token, code, expires):
            send(.paired(id: requestID, name: name, token: token,
                         pairing: PairingOffer(code: code, link: pairingLink(code), expires: expires)), to: id)
        case let .status(id, requestID):
            send(.status(id: requestID, state.status(statusFacts)), to: id)
        case let .profiles(id, requestID):
            send(state.profilesReply(id: requestID), to: id)
        case let .exportLive(id, requestID):
            let committed = live.committed
            send(.export(id: requestID, profile: committed.profile,
                         yaml: DeckProfile(name: committed.profile, layout: committed.layout).yaml), to: id)
        case let .trackHold(request, connection):
            handleInPlace(.holds(.track(request, of: connection)))
        case .liftHolds(let connection):
            handleInPlace(.holds(.left(connection)))
        case .liftAllHolds:
            handleInPlace(.holds(.liftAll))
        case .pressPlugin(let request):
            guard case let .plugin(plugin, command, settings) = request.button.action else { return }
            pressPlugin(request, plugin: plugin, command: command, settings: settings)
        case .startAction(let request):
            startAction(request)
        case let .actionEnded(request, outcome):
            actionEnded(request, outcome)
        case let .switchProfile(name, press):
            handle(.profileButton(name, press: press))
        }
    }

    // MARK: Sending

    func send(_ message: HostMessage, to id: ConnectionID) {
        guard let session = sessions[id] else { return }
        do {
            session.connection.send(try OutboundLine(message.line()))
        } catch {
            perform(HostAction.log(.error, "could not encode a \(message.type) message: \(error)"))
        }
    }

    /// One message to every client that receives broadcasts, encoded once.
    func broadcast(_ message: HostMessage) {
        guard let line = try? OutboundLine(message.line()) else { return }
        for session in sessions.values where session.receivesBroadcasts { session.connection.send(line) }
    }

    /// An event to every subscribed control client, encoded once.
    func emit(_ event: DeckEvent) {
        let subscribers = sessions.values.filter(\.subscribed)
        guard !subscribers.isEmpty, let line = try? OutboundLine(HostMessage.event(event).line()) else { return }
        for session in subscribers { session.connection.send(line) }
    }

    /// A refusal: the error to the sender (with `problems` when given), the
    /// layout `then` says, a `refused` event and a log line (``Effect/refusal(_:request:to:by:who:problems:then:)``).
    func refusal(_ error: ProtocolError, request: String, session: Session, problems: [Problem]? = nil,
                 then layout: RefusalLayout = .none) -> [Effect] {
        state.refusal(error, request: request, to: session.connection.id, problems: problems, then: layout)
    }

    /// `'Files' by Kim's iPhone` style suffix.
    func byline(_ session: Session?) -> String {
        state.byline(session?.connection.id)
    }

    /// Who `session` is, once its hello was accepted.
    func info(_ session: Session?) -> ClientInfo? {
        session.flatMap { state.sessions[$0.connection.id]?.info }
    }

    /// A problem with its file relative to the layouts folder, as `status` shows it.
    func problem(_ problem: FileProblem) -> Problem {
        state.problem(problem)
    }

    /// Runs `job` on the disk thread with `session`'s reading paused; its
    /// result comes back through the ``inbox`` as `.diskFinished(jobID, …)`,
    /// and reading resumes once the rules have handled it (``receive(_:)``).
    func onDisk(_ jobID: JobID, for session: Session?, _ job: @escaping @Sendable (SnapshotStore) -> DiskResult) {
        if let session {
            session.hold(.disk)
            diskHolds[jobID] = session.connection.id
        }
        let inbox = self.inbox
        services.disk.run(job) { result in
            inbox.post(result, fromAnyThread: { .diskFinished(jobID, $0) })
        }
    }
}
