import DeckModel
import DeckProtocol
import DeckTransport

/// What happens when an entry of the commit pipeline is reached: effects
/// performed in order, and a new committed state if it carried a write.
///
/// Every part is a named value, so a test can read what an input produced.
struct Outcome {
    /// Becomes the committed state (what `welcome`, `status` and `export` show).
    var live: LiveState?
    /// Performed in order when the entry is reached.
    var effects: [Effect]
    /// Performed instead of `effects` when its write failed (each with why).
    var ifWriteFails: [WriteFailure]

    init(live: LiveState? = nil, _ effects: [Effect], ifWriteFails: [WriteFailure] = []) {
        self.live = live
        self.effects = effects
        self.ifWriteFails = ifWriteFails
    }
}

/// What the host does for an entry whose snapshot could not be written
/// (the error is added when it happens).
enum WriteFailure: Equatable {
    /// `error internal` ("could not save the layout: …; nothing changed") to the sender of `request`.
    case refuse(ConnectionID, RequestID?, request: String)
    /// The press that asked for the change ends as failed.
    case actionFailed(ActionRequest)
}

/// One thing the host does when an outcome is reached. No case carries a
/// closure: what an input produced can be compared in a test.
enum Effect: Equatable {
    /// A reply (or any message) to one client.
    case send(ConnectionID, HostMessage)
    /// `ok`, with the committed revision when `withRevision`.
    case ok(ConnectionID, RequestID?, withRevision: Bool)
    /// The committed layout to one client (after a `locked` refusal; after
    /// each reply but the last of a client's edits answered in one step).
    case layoutTo(ConnectionID)
    /// The committed layout to every client that receives broadcasts.
    case broadcastLayout
    /// §5, after edit requests (accepted or refused): the committed layout
    /// to every client that receives broadcasts and to the edits' senders,
    /// which get it even as control clients that have not subscribed. A
    /// scheduler step's outcomes send one (``HostState/oneLayoutAfterEdits(_:)``).
    case layoutAfterEdit([ConnectionID])
    /// `{"type":"lock","locked":…}` to every client that receives broadcasts (§6).
    /// Only that: lifting held buttons on a lock is ``liftAllHolds``.
    case broadcastLock(Bool)
    /// An event for subscribed control clients.
    case event(DeckEvent)
    /// A log line.
    case log(LogLevel, String)
    /// A reload rebased the client edits onto `file` (PROFILE.md §5): the
    /// `reload` event with the dropped edits, `log` with what was kept, and
    /// each dropped edit in the log and `status`, named with the generation
    /// just before this one (known once this entry's write is durable).
    case rebased(profile: String, file: String, EditRebase, revision: Int, by: ClientInfo?, log: String)

    // MARK: Sessions

    /// `welcome` from the committed layout, then the client gets broadcasts (devices).
    case welcome(ConnectionID, id: RequestID?, level: Int)
    /// Closes the connection once what is queued for it is written.
    case closeAfterFlush(ConnectionID)
    /// Closes, after what is queued for them, the connections that presented
    /// `name`'s token (revoked by `pair` or `unpair`).
    case closeRevoked(pairedAs: String)
    /// The control client becomes subscribed: events, and the broadcasts.
    case subscribe(ConnectionID)
    /// The titles plugins show now, to one client.
    case titles(ConnectionID)
    /// The `paired` reply: the token, and the pairing code with its link
    /// (which the shell knows: where the web listener is) and expiry.
    case paired(ConnectionID, RequestID?, name: String, token: String, code: String, expires: String)

    // MARK: Control replies made from the committed state

    /// The `status` reply.
    case status(ConnectionID, RequestID?)
    /// The `profiles` reply.
    case profiles(ConnectionID, RequestID?)
    /// The `export` reply for the live profile.
    case exportLive(ConnectionID, RequestID?)

    // MARK: Presses and actions

    /// A device's `down` or `up` of a button, for the buttons it holds (``HeldButtons``).
    case trackHold(ActionRequest, of: ConnectionID)
    /// The connection left: every plugin button it held gets its `up`.
    case liftHolds(of: ConnectionID)
    /// The host locked: every held plugin button gets its `up`.
    case liftAllHolds
    /// The press goes to its button's plugin.
    case pressPlugin(ActionRequest)
    /// A `run` or `open` action goes to the runner.
    case startAction(ActionRequest)
    /// The press's action ended (its `action` event and log line).
    case actionEnded(ActionRequest, ActionOutcome)
    /// A `profile` button: its profile becomes live.
    case switchProfile(String, press: ActionRequest)
}

/// What layout, if any, follows a refusal's error (PROTOCOL.md §5, §6).
enum RefusalLayout: Equatable {
    /// None.
    case none
    /// The committed layout to the refused sender only (`locked`, §6).
    case toSender
    /// As after any edit request: to everyone who receives broadcasts and the sender (§5).
    case afterEdit
}

extension Effect {
    /// A refusal in the one order the protocol needs: the error to the sender
    /// (with `problems` when given), the layout `then` says, a `refused`
    /// event, a log line. Built in one place so no caller edits it by position.
    static func refusal(_ error: ProtocolError, request: String, to sender: ConnectionID, by client: ClientInfo?, who: String,
                        problems: [Problem]? = nil, then layout: RefusalLayout = .none) -> [Effect] {
        let reply: HostMessage = problems.map { .error(id: error.id, code: error.code, message: error.message, problems: $0) }
            ?? error.reply
        var effects: [Effect] = [.send(sender, reply)]
        switch layout {
        case .none: break
        case .toSender: effects.append(.layoutTo(sender))
        case .afterEdit: effects.append(.layoutAfterEdit([sender]))
        }
        effects += [.event(.refused(request: request, code: error.code, message: error.message, by: client)),
                    .log(.info, "refused \(request) from \(who): \(error.code.rawValue): \(error.message)")]
        return effects
    }

    /// A change of the lock (manual or probe): the broadcast, the lift of
    /// every held button when it locked, the event and the log line.
    static func lockChanged(_ locked: Bool, source: LockSource, by client: ClientInfo?, log: String) -> [Effect] {
        [.broadcastLock(locked)] + (locked ? [.liftAllHolds] : [])
            + [.event(.lock(locked: locked, source: source, by: client)), .log(.info, log)]
    }
}
