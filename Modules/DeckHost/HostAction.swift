import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckProtocol
import DeckSnapshots
import DeckTransport

/// What ``HostState/handle(_:)`` asks the shell (`HostCore`) to do, in
/// order. No case carries a closure: a test compares the list.
enum HostAction: Equatable {
    /// An outcome into the ordered commit pipeline (``CommitScheduler``);
    /// ``HostState/process(_:)`` hands it to the scheduler, so the shell never sees it.
    case commit(Commit)
    /// A device was heard from (its edit request is queued): a batch held
    /// for it may go (decided in ``HostState/process(_:)``, like `.commit`).
    case heard(ConnectionID)
    /// A log line (the one logging path of the rules).
    case log(LogLevel, String)
    /// The connection's hello was accepted with `access`: its handshake decodes
    /// later lines with those rights; `issuedToken` (a device that paired
    /// with a code) goes in its welcome.
    case admit(ConnectionID, ClientAccess, issuedToken: String?)
    /// The connection's hello was refused: `error` is sent and the connection
    /// closed once it is written (its `leave` says `error`'s code).
    case refuseConnection(ConnectionID, ProtocolError)
    /// A sentence for `status`'s `notices` (HostState has kept it), to log.
    case note(String, level: LogLevel)
    /// Work for the disk thread; its result comes back as
    /// ``HostInput/diskFinished(_:_:)`` with the job's ``DiskJob/id``.
    /// The sender named in the job is not read from until then.
    case disk(DiskJob)
    /// An effect performed now, outside the pipeline (as a press's end is
    /// when its action never reaches the disk).
    case perform(Effect)
    /// Stops reading from a connection for `because` (``ReadGate``).
    case pauseReading(ConnectionID, because: ReadGate.Reason)
    /// Ends `because`'s hold on a connection's reading (the throttle's resume).
    case resumeReading(ConnectionID, because: ReadGate.Reason)
    /// A batch of writes for the disk thread, as one group commit; its end
    /// comes back as ``HostInput/batchFinished(receipts:failure:markerFailure:notices:)``.
    case writeBatch([SnapshotEntry])
    /// An entry of the pipeline reached its turn: its state (if any) is
    /// committed as `written`, then its effects are performed in order.
    case outcome(Outcome, written: DeckSnapshots.SnapshotInfo?)
    /// Hand ``HostInput/commitTimerFired(_:)`` with `generation` back after
    /// `after`: the end of a batch held for devices about to send.
    case armCommitTimer(after: Duration, generation: Int)
    /// The armed gather timer is stale (its hold ended): cancel it, so it does not wake the loop.
    case cancelCommitTimer
    /// A fresh scan of the plugins folders replaces the plugin manager's:
    /// changed plugins restart, removed ones stop, failed ones may start
    /// again (what to log and relabel the rules decided already).
    case applyPlugins(PluginCatalog)
    /// Plugin `plugin`'s buttons in the committed layout changed: the plugin
    /// manager sends it `buttons` (and starts it when it first has one).
    case pluginButtons(String, [PluginButton])
    /// Hand ``HostInput/followCommitted`` back once this turn's replies are
    /// written (at once off the loop): the plugins and the follow commands
    /// follow a commit after its `ok` and layout lines, not before them.
    case followCommittedAfterReplies
    /// `restart PLUGIN` for `connection` (`reset`: its state folder emptied
    /// first, `deckctl plugins ID --reset`): the shell asks the plugin manager
    /// and hands back ``HostInput/pluginRestarted(_:_:plugin:_:)``.
    case restartPlugin(String, reset: Bool = false, for: ConnectionID, id: RequestID?)
    /// Arms `timer`: ``HostInput/timerFired(_:)`` comes back after `after`.
    case armTimer(HostTimer, after: Duration)
    /// One step of the stop, in the order the state lists them.
    case stop(StopStep)
    /// What the face table decided (never its `refuse`, which the rules
    /// answer, nor `scheduleFrame`, which is `.armTimer(.faceFrame, …)`).
    case face(FaceAction)
    /// A follow command's process or timer, for the `FollowRunner`
    /// (`spawn`, `terminate`, `kill`, `wake`; never a face or a log line).
    case follow(FollowMachine.Action)
}

/// The steps of the host's stop (docs/host.md, "Stopping").
enum StopStep: Equatable {
    /// Close every listener: no new connection.
    case closeListeners
    /// Stop the layouts folder's watch and the lock probe.
    case stopWatching
    /// Stop the action runner (running actions are ended).
    case stopActions
    /// Ask every plugin to stop: SIGTERM after `grace`, SIGKILL `killGrace`
    /// later; the shell sends ``HostInput/stopProgress(pluginsStopped:)`` when they are gone.
    case stopPlugins(grace: Duration, killGrace: Duration)
    /// Stop reading from every connection.
    case holdReading
    /// Let a batch held for devices go now (``CommitScheduler/release()``).
    case releaseCommits
    /// Send ``HostInput/stopProgress(pluginsStopped:)`` now.
    case checkProgress
    /// Kill what is left of the follows, stop reading signals, stop the loop.
    case stopLoop
}

/// One entry for the commit pipeline: the outcome, whether it writes a
/// snapshot of its `live` state (with the reason the snapshot records), the
/// device a following batch may wait for, and the sender to pause when too
/// much waits.
struct Commit: Equatable {
    var outcome: Outcome
    /// The snapshot reason (`setButton`, `reload`, …) when the outcome's
    /// `live` state is written before it is performed; nil writes nothing.
    var writeReason: String?
    /// The client whose edit request this write is (``BatchGather``).
    var editor: ConnectionID?
    /// Paused when too many outcomes wait for the disk.
    var sender: ConnectionID?

    init(_ outcome: Outcome, writeReason: String? = nil, editor: ConnectionID? = nil, sender: ConnectionID? = nil) {
        self.outcome = outcome
        self.writeReason = writeReason
        self.editor = editor
        self.sender = sender
    }
}

extension Outcome: Equatable {
    static func == (lhs: Outcome, rhs: Outcome) -> Bool {
        lhs.live == rhs.live && lhs.effects == rhs.effects && lhs.ifWriteFails == rhs.ifWriteFails
    }
}

