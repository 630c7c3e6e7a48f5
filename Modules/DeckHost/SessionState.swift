import DeckProtocol

/// One connection as the host's rules see it: who it is once its `hello`
/// was accepted, and whether it is a control client. The socket, its
/// handshake and its reading stay with the shell's `Session`.
struct SessionState: Equatable {
    /// The peer's address as logs name a client that has not said hello.
    var peer: String
    /// The peer's host part, which failed credentials count against (``DeviceAuth``).
    var host: String
    /// Who it is, once its `hello` was accepted.
    var info: ClientInfo?
    /// The paired device whose token it presented (closed by `unpair`).
    var pairedName: String?
    /// A control client (deckctl on the control socket).
    var isControl = false

    init(peer: String, host: String = "", info: ClientInfo? = nil, pairedName: String? = nil, isControl: Bool = false) {
        self.peer = peer
        self.host = host
        self.info = info
        self.pairedName = pairedName
        self.isControl = isControl
    }

    /// How a log line or refusal names it: its name, else its address.
    var who: String { info?.name ?? peer }

    /// `'Files' by Kim's iPhone` style suffix.
    var byline: String { " by " + LogField.cut(who) }

    /// Its `hello` was accepted: from now on it is `info`.
    mutating func establish(_ info: ClientInfo, pairedName: String?, isControl: Bool) {
        self.info = info
        self.pairedName = pairedName
        self.isControl = isControl
    }
}
