import DeckTestSupport  // SeededGenerator
import DeckModel
import DeckProtocol
import LockGate
@testable import DeckHost
@testable import DeckProfiles
@testable import DeckTransport

/// A ``HostState`` with two devices and a control client joined, driven
/// through `handle` only: no process, no socket, no clock.
enum Rules {
    static let phone = ConnectionID(rawValue: 1)
    static let tablet = ConnectionID(rawValue: 2)
    static let control = ConnectionID(rawValue: 9)
    static let kim = ClientInfo(name: "kim", kind: "phone", address: "10.0.0.2:5000", protocolLevel: 7)
    static let lee = ClientInfo(name: "lee", kind: "tablet", address: "10.0.0.3:5000", protocolLevel: 7)
    static let deckctl = ClientInfo(name: "deckctl", kind: "control", address: "control", protocolLevel: 7)

    static let files = DeckButton(name: "Files", action: .open("/home"))
    static let term = DeckButton(name: "Term", action: .run(command: "xterm"))
    static let next = DeckButton(name: "Next", action: .page(.next))
    static let stream = DeckButton(name: "Stream", action: .profile("stream"))
    static let talk = DeckButton(name: "Talk", action: .plugin(id: "talk", command: "hold"))
    static let later = DeckButton(name: "Later", action: .run(command: "true"))

    /// Page 0: Files, Term, Next, Stream, Talk; page 1: Later at 0. Revision 5 of `default`.
    static func layout() throws -> DeckLayout {
        var layout = DeckLayout.empty()
        for (index, button) in [files, term, next, stream, talk].enumerated() {
            try layout.set(page: 0, index: index, button: button)
        }
        layout.pages.append(.empty(slots: layout.slotsPerPage))
        try layout.set(page: 1, index: 0, button: later)
        return layout
    }

    /// A fixed clock (UTC 1000 s) and a seeded generator.
    static func environment(seed: UInt64 = 7) -> HostEnvironment {
        let start = ContinuousClock.now
        return HostEnvironment(utcNow: { 1000 }, instantNow: { start }, random: HostRandom(SeededGenerator(seed: seed)))
    }

    /// The host serving `layout` (``layout()`` when nil), phone, tablet and control client joined.
    static func host(maxLayoutBytes: Int = DeckConstants.maximumLayoutBytes, seed: UInt64 = 7, layout: DeckLayout? = nil) throws
        -> HostState {
        var state = HostState(
            live: try LiveLayout(LiveState(profile: "default", revision: 5, layout: try layout ?? Self.layout(), source: nil)),
            commits: CommitScheduler(), auth: DeviceAuth(tokens: TokenStore(), path: "/nonexistent/tokens.json"),
            catalog: ProfileCatalog(folder: "/layouts", files: []), notices: Notices(start: []), maxLayoutBytes: maxLayoutBytes, layoutsPath: "/layouts",
            environment: environment(seed: seed))
        for (id, info) in [(phone, kim), (tablet, lee), (Self.control, deckctl)] { join(&state, id, info) }
        return state
    }

    /// The rules of a loopback TCP connection (no token needed), a remote
    /// one (a token needed) and the control socket.
    static let loopback = Handshake.Rules(isControlSocket: false, peerIsLoopback: true, requireToken: false)
    static let remote = Handshake.Rules(isControlSocket: false, peerIsLoopback: false, requireToken: false)
    static let controlSocket = Handshake.Rules(isControlSocket: true, peerIsLoopback: true, requireToken: false)

    /// A decoded hello from a client that names itself as `info` does, as the shell hands it to the rules.
    static func attempt(_ info: ClientInfo, id: RequestID? = nil, token: String? = nil, code: String? = nil,
                        rules: Handshake.Rules? = nil) -> Handshake.Attempt {
        let control = info.kind == "control"
        return Handshake.Attempt(id: id, hello: Hello(protocolLevel: info.protocolLevel, device: Device(name: info.name, kind: info.kind),
                                                      token: token, pairingCode: code),
                                 level: info.protocolLevel, rules: rules ?? (control ? controlSocket : loopback))
    }

    /// Opens and establishes one more client (`info.protocolLevel` is its level), from `host` (the address's host part).
    @discardableResult
    static func join(_ host: inout HostState, _ id: ConnectionID, _ info: ClientInfo, token: String? = nil,
                     rules: Handshake.Rules? = nil) -> [HostAction] {
        _ = host.handle(.opened(id, peer: info.address, host: String(info.address.prefix { $0 != ":" })))
        return host.handle(.hello(id, attempt(info, token: token, rules: rules)))
    }

    /// Every log line the actions carry, as actions or as effects of their commits.
    static func logLines(_ actions: [HostAction]) -> [String] {
        actions.flatMap { action -> [String] in
            switch action {
            case .log(_, let text): [text]
            case .commit(let commit): commit.outcome.effects.compactMap { if case .log(_, let text) = $0 { text } else { nil } }
            default: []
            }
        }
    }

    static func message(_ request: ClientRequest, id: RequestID? = 1) -> ClientMessage {
        ClientMessage(id: id, request)
    }

    /// `state` committed as HostCore performs it: the commit's actions, with
    /// the follow it owes (``HostAction/followCommittedAfterReplies``)
    /// replaced by that follow's actions, which the shell runs once the
    /// turn's replies are written.
    static func committed(_ host: inout HostState, _ state: LiveState) -> [HostAction] {
        var actions: [HostAction] = []
        for action in host.handle(.committed(state, written: nil)) {
            if action == .followCommittedAfterReplies { actions += host.handle(.followCommitted) } else { actions.append(action) }
        }
        return actions
    }

    /// The one commit an input produced (nil when it produced another shape).
    static func commit(_ actions: [HostAction]) -> Commit? {
        guard actions.count == 1, case .commit(let commit) = actions[0] else { return nil }
        return commit
    }

    /// A refusal of `request` from `connection` as one commit, in the protocol's order.
    static func refused(_ code: ErrorCode, _ message: String, id: RequestID? = 1, request: String, by connection: ConnectionID,
                        who: ClientInfo, then layout: RefusalLayout = .none, paused: Bool = true) -> HostAction {
        .commit(Commit(Outcome(Effect.refusal(ProtocolError(code, message, id: id), request: request, to: connection, by: who,
                                              who: who.name, then: layout)),
                       sender: paused ? connection : nil))
    }
}
