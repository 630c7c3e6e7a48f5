import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// Buttons with faces (docs/faces.md §1) edited by devices of both levels:
/// below level 8 a button compares by name, icon and action only.
@Suite("HostState rules: protocol levels")
struct HostRulesLevelTests {
    typealias R = Rules

    static let backup = DeckButton(name: "Backup", action: .run(command: "true"), style: ButtonStyle(background: DeckColor("green")),
                                   states: [ButtonState(id: "idle"),
                                            ButtonState(id: "failed", name: "Backup failed", style: ButtonStyle(background: DeckColor("red")))])
    /// Backup as a level-7 device knows it: no style, no states.
    static let seen = DeckButton(name: "Backup", action: .run(command: "true"))
    static let modern = ConnectionID(rawValue: 3)

    static func host() throws -> HostState {
        var layout = DeckLayout.empty()
        try layout.set(page: 0, index: 0, button: backup)
        var host = try R.host(layout: layout)
        R.join(&host, modern, ClientInfo(name: "modern", kind: "phone", address: "10.0.0.4:5000", protocolLevel: 8))
        return host
    }

    /// A level-7 move names the button as it saw it, and moves the whole
    /// button: its style and states go with it.
    @Test func aLevel7MoveKeepsTheStyleAndStates() throws {
        var host = try Self.host()
        let actions = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 3,
                                                                          button: Self.seen))))
        #expect(R.commit(Array(actions.prefix(1)))?.outcome.effects.first == .ok(R.phone, 1, withRevision: true))
        #expect(host.live.head.layout.button(page: 0, index: 3) == Self.backup && host.live.head.revision == 6)
    }

    @Test func aLevel7ClearNamingTheButtonAsItSawItClearsIt() throws {
        var host = try Self.host()
        _ = host.handle(.request(R.phone, R.message(.clearButton(page: 0, index: 0, expecting: Self.seen))))
        #expect(host.live.head.layout.button(page: 0, index: 0) == nil)
    }

    /// At level 8 style and states count in the stale check.
    @Test func atLevel8TheSameNameIsStale() throws {
        var host = try Self.host()
        let actions = host.handle(.request(Self.modern, R.message(.clearButton(page: 0, index: 0, expecting: Self.seen))))
        guard case .send(Self.modern, .error(.some(1), .stale, _, _)) = R.commit(Array(actions.prefix(1)))?.outcome.effects.first else {
            Issue.record("expected stale, got \(actions)")
            return
        }
        #expect(host.live.head.layout.button(page: 0, index: 0) == Self.backup)
    }

    /// A level-7 press naming the button as it saw it runs it.
    @Test func aLevel7PressNamingTheButtonAsItSawItRunsIt() throws {
        var host = try Self.host()
        let effects = try #require(R.commit(host.handle(.request(R.phone, R.message(.press(page: 0, index: 0, button: Self.seen,
                                                                                             phase: .tap)))))).outcome.effects
        #expect(effects.last == .startAction(ActionRequest(page: 0, index: 0, button: Self.backup, phase: .tap, by: R.kim)))
    }

    /// The web deck reads JSON numbers as doubles, so it echoes a setting
    /// written `2.0` as `2`: one number, so the move is no stale one, and the
    /// slot keeps the setting as written.
    @Test func aLevel8MoveEchoingASettingsNumberAsAnotherFormMovesIt() throws {
        let gain = DeckButton(name: "Gain", action: .plugin(id: "sound", command: "volume", settings: ["step": .double(2.0)]))
        let echoed = DeckButton(name: "Gain", action: .plugin(id: "sound", command: "volume", settings: ["step": .int(2)]))
        var layout = DeckLayout.empty()
        try layout.set(page: 0, index: 0, button: gain)
        var host = try R.host(layout: layout)
        R.join(&host, Self.modern, ClientInfo(name: "modern", kind: "phone", address: "10.0.0.4:5000", protocolLevel: 8))
        let actions = host.handle(.request(Self.modern, R.message(.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 3,
                                                                              button: echoed))))
        #expect(R.commit(Array(actions.prefix(1)))?.outcome.effects.first == .ok(Self.modern, 1, withRevision: true))
        #expect(host.live.head.layout.button(page: 0, index: 3) == gain)
    }
}
