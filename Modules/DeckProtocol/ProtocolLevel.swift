/// Protocol levels and their negotiation (PROTOCOL.md §2).
///
/// A level is an integer that grows when the protocol gains requests. Each
/// side says the highest level it speaks; the connection uses the lower one.
public enum ProtocolLevel {
    /// The level this library (and so the host) speaks.
    public static let current = 8
    /// The lowest client level the host still serves.
    public static let minimum = 1

    /// The level a connection uses: `min(client, current)`.
    ///
    /// Throws `unsupported` when the client's level is below ``minimum``
    /// (the host then closes the connection).
    public static func negotiate(client level: Int) throws(ProtocolError) -> Int {
        guard level >= minimum else {
            throw ProtocolError(.unsupported,
                "this host speaks protocol levels \(minimum) to \(current), and the client speaks \(level); update the client")
        }
        return min(level, current)
    }
}

/// What a handshaken connection may send: the level it negotiated, and
/// whether it is a `control` client on the control socket.
public struct ClientAccess: Hashable, Sendable {
    /// The negotiated protocol level.
    public var level: Int
    /// True only for a `hello` with `device.kind: "control"` on the control socket.
    public var isControl: Bool

    /// Describes a connection's rights.
    public init(level: Int, isControl: Bool) {
        self.level = level
        self.isControl = isControl
    }
}

/// Every request `type` a client may send, and the one table that says who
/// may send it from which level.
public enum RequestKind: String, CaseIterable, Hashable, Sendable {
    case hello, setButton, clearButton, moveButton, press, ping
    case status, lock, unlock, reload, useProfile, profiles, snapshots, restore, export, pair, unpair, subscribe, restart
    case devices, setFace

    /// Who may send a kind of request.
    public enum Audience: Hashable, Sendable {
        /// Only as the first message of a connection (`hello`).
        case handshake
        /// Any handshaken client (§4).
        case anyClient
        /// Only a `control` client on the control socket (§7); `unauthorized` elsewhere.
        case control
    }

    /// One row of the level table.
    public struct Rule: Hashable, Sendable {
        /// The lowest negotiated level at which the request is accepted.
        public let minimumLevel: Int
        /// Who may send it.
        public let audience: Audience
        /// True for the edits after which every client is sent the layout (§5).
        public let editsLayout: Bool
    }

    /// THE level table. A request below its level gets `unsupported`; a
    /// control request from anyone but a control client gets `unauthorized`.
    public var rule: Rule {
        switch self {
        //                                    level         audience        edit
        case .hello:       Rule(minimumLevel: 1, audience: .handshake, editsLayout: false)
        case .setButton:   Rule(minimumLevel: 1, audience: .anyClient, editsLayout: true)
        case .clearButton: Rule(minimumLevel: 1, audience: .anyClient, editsLayout: true)
        case .moveButton:  Rule(minimumLevel: 7, audience: .anyClient, editsLayout: true)
        case .press:       Rule(minimumLevel: 1, audience: .anyClient, editsLayout: false)
        case .ping:        Rule(minimumLevel: 1, audience: .anyClient, editsLayout: false)
        case .status:      Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .lock:        Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .unlock:      Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .reload:      Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .useProfile:  Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .profiles:    Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .snapshots:   Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .restore:     Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .export:      Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .pair:        Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .unpair:      Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .subscribe:   Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .restart:     Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .devices:     Rule(minimumLevel: 1, audience: .control, editsLayout: false)
        case .setFace:     Rule(minimumLevel: 8, audience: .control, editsLayout: false)
        }
    }

    /// True for the control requests of §7.
    public var isControlOnly: Bool { rule.audience == .control }

    /// True when a connection that negotiated `level` may send this request
    /// (a device app asks this before offering, say, drag to move).
    public func isAvailable(atLevel level: Int) -> Bool { level >= rule.minimumLevel }

    /// Checks that a handshaken connection may send this request.
    ///
    /// Throws `handshake` for a second `hello`, `unsupported` below the
    /// request's level, `unauthorized` for a control request from a
    /// connection that is not a control client. The error carries no id; the
    /// decoder adds it.
    public func admit(_ access: ClientAccess) throws(ProtocolError) {
        let rule = self.rule
        switch rule.audience {
        case .handshake:
            throw ProtocolError(.handshake, "this connection has already said hello; send hello once, as the first message")
        case .control where !access.isControl:
            throw ProtocolError(.unauthorized,
                "\(rawValue) is a control request: send it from a control client on the host's control socket (deckctl)")
        case .control, .anyClient:
            break
        }
        guard isAvailable(atLevel: access.level) else {
            throw ProtocolError(.unsupported,
                "\(rawValue) needs protocol level \(rule.minimumLevel), and this connection speaks level \(access.level)")
        }
    }
}
