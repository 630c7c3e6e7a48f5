import DeckProtocol
import DeckTransport

/// One connection as the shell sees it: the socket, its handshake, what it
/// receives and why its reading is paused. Who it is lives in
/// ``HostState/sessions`` (``SessionState``). Loop-confined.
final class Session {
    let connection: Connection
    let rules: Handshake.Rules
    var handshake = Handshake()
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
    /// Its token was revoked (`pair`, `unpair`): nothing more it sends is
    /// read; it is closed once the replies already owed to it are out.
    var revoked = false
    /// Why the host closed it, for the `leave` event.
    var closeReason: String?

    init(connection: Connection, rules: Handshake.Rules) {
        self.connection = connection
        self.rules = rules
    }

    /// Pauses or resumes reading to match ``waitingForDisk``, ``throttled`` and ``revoked``.
    func updateReading() {
        guard connection.isOpen else { return }
        if waitingForDisk || throttled || revoked {
            connection.pauseReading()
        } else {
            connection.resumeReading()
        }
    }
}
