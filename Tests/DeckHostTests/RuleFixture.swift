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
        for (id, info, control) in [(phone, kim, false), (tablet, lee, false), (Self.control, deckctl, true)] {
            _ = state.handle(.opened(id, peer: info.address))
            _ = state.handle(.established(id, info, pairedName: nil, isControl: control, id: nil, level: 7, now: 0))
        }
        return state
    }

    /// Opens and establishes one more client (`level` is its protocol level).
    static func join(_ host: inout HostState, _ id: ConnectionID, _ info: ClientInfo) {
        _ = host.handle(.opened(id, peer: info.address))
        _ = host.handle(.established(id, info, pairedName: nil, isControl: false, id: nil, level: info.protocolLevel, now: 0))
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
