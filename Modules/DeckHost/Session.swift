import DeckProtocol
import DeckTransport

/// One connection as the host sees it. Loop-confined.
final class Session {
    let connection: Connection
    let rules: Handshake.Rules
    var handshake = Handshake()
    /// Who it is, once its `hello` was accepted.
    var info: ClientInfo?
    /// The paired device whose token it presented (closed by `unpair`).
    var pairedName: String?
    /// The token its `welcome` carries: it paired with a pairing code (WEB.md §3).
    var issuedToken: String?
    /// True once its `welcome` went out (devices) or it subscribed (control
    /// clients): from then on it gets `layout` and `lock` broadcasts.
    var receivesBroadcasts = false
    /// A subscribed control client also gets events.
    var subscribed = false
    /// Reading is paused while a request of this client waits for the disk
    /// (control requests), so its replies stay in request order.
    var waitingForDisk = false
    /// Reading is paused because too many outcomes wait for the disk.
    var throttled = false
    /// Why the host closed it, for the `leave` event.
    var closeReason: String?

    init(connection: Connection, rules: Handshake.Rules) {
        self.connection = connection
        self.rules = rules
    }

    var isControl: Bool { handshake.access?.isControl ?? false }

    /// Pauses or resumes reading to match ``waitingForDisk`` and ``throttled``.
    func updateReading() {
        guard connection.isOpen else { return }
        if waitingForDisk || throttled {
            connection.pauseReading()
        } else {
            connection.resumeReading()
        }
    }
}

/// What happens when an entry of the commit pipeline is reached: effects
/// performed in order, and a new committed state if it carried a write.
struct Outcome {
    /// Becomes the committed state (what `welcome`, `status` and `export` show).
    var live: LiveState?
    /// Performed in order when the entry is reached.
    var effects: [Effect]
    /// Performed instead when its write failed (with why).
    var failure: ((HostCore, any Error) -> Void)?

    init(live: LiveState? = nil, _ effects: [Effect], failure: ((HostCore, any Error) -> Void)? = nil) {
        self.live = live
        self.effects = effects
        self.failure = failure
    }
}

/// One thing the host does when an outcome is reached.
enum Effect {
    /// A reply (or any message) to one client.
    case send(ConnectionID, HostMessage)
    /// `ok`, with the committed revision when `withRevision`.
    case ok(ConnectionID, RequestID?, withRevision: Bool)
    /// The committed layout to one client (after a `locked` refusal).
    case layoutTo(ConnectionID)
    /// The committed layout to every client that receives broadcasts.
    case broadcastLayout
    /// §5, after an edit request (accepted or refused): the committed layout
    /// to every client that receives broadcasts and to the edit's sender,
    /// which gets it even as a control client that has not subscribed.
    case layoutAfterEdit(ConnectionID)
    /// `{"type":"lock","locked":…}` to every client that receives broadcasts (§6).
    case broadcastLock(Bool)
    /// An event for subscribed control clients.
    case event(DeckEvent)
    /// A log line.
    case log(LogLevel, String)
    /// Anything else that must happen in order (a welcome, a runner started).
    case run((HostCore) -> Void)
}
