import DeckModel
import DeckProtocol
import DeckSnapshots
import Testing
@testable import DeckHost
@testable import DeckTransport

/// The value types HostCore drives (issue 19), without sockets.
enum Fixture {
    static func id(_ number: UInt64) -> ConnectionID { ConnectionID(rawValue: number) }

    static func layout(_ names: [String]) throws -> DeckLayout {
        var layout = DeckLayout.empty()
        for (index, name) in names.enumerated() {
            try layout.set(page: 0, index: index, button: DeckButton(name: name, action: .run(command: "true")))
        }
        return layout
    }

    static let kim = ClientInfo(name: "kim", kind: "phone", address: "10.0.0.2:5000", protocolLevel: 7)

    static func press(_ phase: PressPhase, slot: Int = 0, plugin: Bool = true) -> ActionRequest {
        let action: DeckAction = plugin ? .plugin(id: "talk", command: "hold") : .run(command: "true")
        return ActionRequest(page: 0, index: slot, button: DeckButton(name: "Talk \(slot)", action: action), phase: phase, by: kim)
    }
}

@Suite("LiveLayout: committed, head and the lines")
struct LiveLayoutTests {
    @Test func aChangeIsOneRevisionAboveHeadAndCommittedOnlyOnceDurable() throws {
        var live = try LiveLayout(LiveState(profile: "default", revision: 7, layout: try Fixture.layout(["A"]), source: nil))
        let first = live.advance(layout: try Fixture.layout(["B"]), edits: [])
        let second = live.advance(layout: try Fixture.layout(["C"]), edits: [])
        #expect(first.revision == 8 && second.revision == 9 && second.profile == "default")
        #expect(live.head.revision == 9 && live.committed.revision == 7)
        #expect(live.lines.state.revision == 7)
        try live.commit(first)
        #expect(live.committed.revision == 8 && live.lines.state.revision == 8 && live.head.revision == 9)
        #expect(String(decoding: live.lines.broadcast.bytes, as: UTF8.self).contains("\"B\""))
    }

    @Test func aFailedWriteRollsHeadBackToCommitted() throws {
        var live = try LiveLayout(LiveState(profile: "default", revision: 1, layout: try Fixture.layout(["A"]), source: nil))
        _ = live.advance(layout: try Fixture.layout(["B"]), edits: [])
        live.rollBack()
        #expect(live.head.revision == 1 && live.head.layout.button(page: 0, index: 0)?.name == "A")
        // The next change builds on the committed layout again, at the next revision.
        #expect(live.next(layout: try Fixture.layout(["C"]), edits: []).revision == 2)
    }

    @Test func aSwitchNamesItsProfileAndSourceAndAnEditKeepsThem() throws {
        let source = SnapshotSource(file: "default.yaml", crc32: 1, bytes: 2)
        var live = try LiveLayout(LiveState(profile: "default", revision: 3, layout: try Fixture.layout(["A"]), source: source))
        let edit = live.next(layout: try Fixture.layout(["B"]), edits: [])
        #expect(edit.profile == "default" && edit.source == source)
        let other = live.advance(layout: try Fixture.layout(["S"]), profile: "stream", source: .some(nil), edits: [])
        #expect(other.profile == "stream" && other.source == nil && other.revision == 4)
        #expect(live.head.profile == "stream")
    }

    /// A reload's rebase names the generation before its own for `restore`;
    /// the commit keeps the newest one written, and one without a write keeps it.
    @Test func aCommitRemembersTheGenerationItWasWrittenAs() throws {
        var live = try LiveLayout(LiveState(profile: "default", revision: 1, layout: try Fixture.layout(["A"]), source: nil))
        #expect(live.written == nil && live.generationBeforeWritten == 0)
        let state = live.advance(layout: try Fixture.layout(["B"]), edits: [])
        let info = SnapshotInfo(profile: "default", generation: 5, revision: 2, time: .now, reason: "reload", source: nil, bytes: 1)
        try live.commit(state, written: info)
        #expect(live.written == info && live.generationBeforeWritten == 4)
        try live.commit(live.advance(layout: try Fixture.layout(["C"]), edits: []))
        #expect(live.written?.generation == 5 && live.committed.revision == 3)
        live.rollBack()
        #expect(live.generationBeforeWritten == 4)
    }
}

@Suite("DeviceAuth: tokens and the failed-attempt limit, asked at hello")
struct DeviceAuthTests {
    static let now = ContinuousClock.now
    static func hello(token: String?) -> Hello { Hello(device: Device(name: "n", kind: "phone"), token: token) }

    @Test func aPairedTokenIsAcceptedAndAWrongOneCountedUntilTheAddressIsBlocked() {
        var auth = DeviceAuth(tokens: TokenStore(), path: "/nonexistent/tokens.json",
                              limiter: FailedAttemptLimiter(limit: 2, window: .seconds(60)))
        let (token, undo) = auth.pair("kim", now: 0)
        #expect(undo == DeviceAuth.Undo(name: "kim", device: nil))
        #expect(auth.authenticate(Self.hello(token: token), required: true, from: "a", now: Self.now) == .accepted(pairedName: "kim"))
        #expect(auth.authenticate(Self.hello(token: nil), required: true, from: "a", now: Self.now) == .noToken)
        #expect(auth.authenticate(Self.hello(token: "guess"), required: true, from: "a", now: Self.now) == .invalidToken)
        // Two failures: even the right token is refused now, without comparing; another address is not.
        #expect(auth.authenticate(Self.hello(token: token), required: true, from: "a", now: Self.now) == .blocked)
        #expect(auth.authenticate(Self.hello(token: token), required: true, from: "b", now: Self.now) == .accepted(pairedName: "kim"))
        #expect(auth.authenticate(Self.hello(token: token), required: true, from: "a", now: Self.now + .seconds(61))
                == .accepted(pairedName: "kim"))
    }

    @Test func withoutATokenRequiredNothingIsCountedButAPresentedTokenIsNamed() {
        var auth = DeviceAuth(tokens: TokenStore(), path: "/x", limiter: FailedAttemptLimiter(limit: 1, window: .seconds(60)))
        let (token, _) = auth.pair("kim", now: 0)
        #expect(auth.authenticate(Self.hello(token: "guess"), required: false, from: "lo", now: Self.now) == .accepted(pairedName: nil))
        #expect(auth.authenticate(Self.hello(token: token), required: false, from: "lo", now: Self.now) == .accepted(pairedName: "kim"))
        #expect(auth.trackedAddresses == 0)
    }

    @Test func unpairForgetsAtOnceAndUndoPutsTheOldTokenBack() {
        var auth = DeviceAuth(tokens: TokenStore(), path: "/x")
        let (old, _) = auth.pair("kim", now: 0)
        let (new, replaced) = auth.pair("kim", now: 1)
        #expect(replaced.device?.token == old)
        auth.undo(replaced)
        #expect(auth.tokens.name(forToken: old) == "kim" && auth.tokens.name(forToken: new) == nil)
        let removed = auth.unpair("kim")
        #expect(removed?.device?.token == old && auth.tokens.devices.isEmpty)
        #expect(auth.unpair("kim") == nil)
        auth.undo(removed!)
        #expect(auth.tokens.name(forToken: old) == "kim")
    }

    @Test func devicesListsThePairedByNameWithWhenEachWasLastSeen() {
        var auth = DeviceAuth(tokens: TokenStore(), path: "/x")
        _ = auth.pair("zoe", now: 0)
        _ = auth.pair("kim", now: 60)
        auth.saw("kim", now: 86_400)
        auth.saw("kim", now: 86_401)
        auth.saw("gone", now: 5)  // a name no device has is never listed
        #expect(auth.devices(connected: ["kim"]) == [
            PairedDeviceInfo(name: "kim", pairedAt: "1970-01-01T00:01:00Z", lastSeen: "1970-01-02T00:00:01Z", connected: true),
            PairedDeviceInfo(name: "zoe", pairedAt: "1970-01-01T00:00:00Z", lastSeen: nil, connected: false),
        ])
        // Seen stays across unpair and a new pair, as it did on the host.
        _ = auth.unpair("kim")
        _ = auth.pair("kim", now: 120)
        #expect(auth.devices(connected: []).first?.lastSeen == "1970-01-02T00:00:01Z")
    }

    /// Issue 19: the limiter was checked (and pruned) for every line of a
    /// remote client; the handshake now asks DeviceAuth once, at the hello.
    @Test func theHandshakeAsksForCredentialsOnlyAtTheHello() {
        let rules = Handshake.Rules(isControlSocket: false, peerIsLoopback: false, requireToken: false)
        var auth = DeviceAuth(tokens: TokenStore(), path: "/x")
        let (token, _) = auth.pair("kim", now: 0)
        var handshake = Handshake()
        var asked = 0
        func receive(_ message: ClientMessage) -> HandshakeStep {
            handshake.step(message.line(), rules: rules) { hello, required in
                asked += 1
                return auth.authenticate(hello, required: required, from: "10.0.0.2", now: Self.now)
            }
        }
        guard case .establish(_, _, _, "kim", _) = receive(ClientMessage(id: 1, .hello(Self.hello(token: token)))) else {
            Issue.record("the paired token is accepted"); return
        }
        for number in 2...50 { _ = receive(ClientMessage(id: .int(number), .ping)) }
        #expect(asked == 1)
    }
}

@Suite("HeldButtons: the plugin buttons devices hold down")
struct HeldButtonsTests {
    @Test func aDownIsHeldUntilItsUpAndOnlyForPluginButtons() {
        var holds = HeldButtons()
        holds.track(Fixture.press(.down, plugin: false), of: Fixture.id(1))
        holds.track(Fixture.press(.tap), of: Fixture.id(1))
        #expect(holds.isEmpty)
        holds.track(Fixture.press(.down), of: Fixture.id(1))
        holds.track(Fixture.press(.up), of: Fixture.id(1))
        #expect(holds.isEmpty)
        #expect(holds.left(Fixture.id(1)).isEmpty)
    }

    @Test func leavingLiftsThatConnectionsButtonsInSlotOrderAsUps() {
        var holds = HeldButtons()
        holds.track(Fixture.press(.down, slot: 3), of: Fixture.id(1))
        holds.track(Fixture.press(.down, slot: 1), of: Fixture.id(1))
        holds.track(Fixture.press(.down, slot: 2), of: Fixture.id(2))
        let ups = holds.left(Fixture.id(1))
        #expect(ups.map(\.index) == [1, 3] && ups.allSatisfy { $0.phase == .up && $0.by == Fixture.kim })
        #expect(holds.left(Fixture.id(1)).isEmpty && !holds.isEmpty)
    }

    @Test func lockingLiftsEveryConnectionsButtonsInTheOrderTheyCame() {
        var holds = HeldButtons()
        holds.track(Fixture.press(.down, slot: 5), of: Fixture.id(9))
        holds.track(Fixture.press(.down, slot: 0), of: Fixture.id(2))
        holds.track(Fixture.press(.down, slot: 4), of: Fixture.id(2))
        #expect(holds.liftAll().map(\.index) == [0, 4, 5])
        #expect(holds.isEmpty && holds.liftAll().isEmpty)
    }
}

@Suite("Effects: named, in the order the protocol needs")
struct EffectTests {
    static let error = ProtocolError(.locked, "the host is locked", id: 4)

    /// Issue 19: callers inserted the layout at position 1 and replaced
    /// position 0 with an error carrying problems, trusting `refusal`'s order.
    @Test(arguments: [RefusalLayout.none, .toSender, .afterEdit])
    func aRefusalIsTheErrorThenTheLayoutThenTheEventThenTheLog(_ layout: RefusalLayout) {
        let sender = Fixture.id(3)
        let effects = Effect.refusal(Self.error, request: "press", to: sender, by: Fixture.kim, who: "kim", then: layout)
        let expectedLayout: [Effect] = switch layout {
        case .none: []
        case .toSender: [.layoutTo(sender)]
        case .afterEdit: [.layoutAfterEdit([sender])]
        }
        #expect(effects == [.send(sender, Self.error.reply)] + expectedLayout + [
            .event(.refused(request: "press", code: .locked, message: "the host is locked", by: Fixture.kim)),
            .log(.info, "refused press from kim: locked: the host is locked"),
        ])
    }

    @Test func aRefusalWithProblemsCarriesThemInItsError() {
        let problem = Problem(file: "a.yaml", line: 1, column: 2, message: "bad")
        let effects = Effect.refusal(ProtocolError(.invalid, "a.yaml has a problem", id: 1), request: "useProfile",
                                     to: Fixture.id(1), by: nil, who: "deckctl", problems: [problem])
        #expect(effects.first == .send(Fixture.id(1), .error(id: 1, code: .invalid, message: "a.yaml has a problem",
                                                             problems: [problem])))
        #expect(effects.count == 3)
    }

    /// Issue 19: locking lifted every held button as a hidden side effect of
    /// broadcasting the lock; it is an effect of its own now.
    @Test func lockingLiftsTheHeldButtonsAsAnEffectOfItsOwnAndUnlockingDoesNot() {
        let locked = Effect.lockChanged(true, source: .manual, by: nil, log: "locked")
        #expect(locked == [.broadcastLock(true), .liftAllHolds, .event(.lock(locked: true, source: .manual, by: nil)),
                           .log(.info, "locked")])
        let unlocked = Effect.lockChanged(false, source: .probe, by: nil, log: "unlocked")
        #expect(!unlocked.contains(.liftAllHolds) && unlocked.first == .broadcastLock(false))
    }
}
