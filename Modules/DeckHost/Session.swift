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
    /// Who holds its reading paused, and why.
    private(set) var reading = ReadGate()
    /// Why the host closed it, for the `leave` event.
    var closeReason: String?
    /// The face images a TCP device holds, so each goes inline once.
    var faceImages = HeldFaceImages()

    init(connection: Connection, rules: Handshake.Rules) {
        self.connection = connection
        self.rules = rules
    }

    /// Pauses reading for `reason` (the first hold pauses the connection).
    func hold(_ reason: ReadGate.Reason) {
        apply(reading.hold(reason))
    }

    /// Ends `reason`'s hold (the last one resumes the connection).
    func release(_ reason: ReadGate.Reason) {
        apply(reading.release(reason))
    }

    private func apply(_ action: ReadGate.Action) {
        guard connection.isOpen else { return }
        switch action {
        case .pause: connection.pauseReading()
        case .resume: connection.resumeReading()
        case .none: break
        }
    }
}
