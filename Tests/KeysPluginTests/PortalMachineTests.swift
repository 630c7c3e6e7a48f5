import DeckDBus
import Testing
@testable import KeysPlugin

/// The portal handshake driven directly with hand-made messages: no bus, no sleep.
@Suite struct PortalMachineTests {
    static let request = "/org/freedesktop/portal/desktop/request/1_42"
    static let session = "/org/freedesktop/portal/desktop/session/1_42/deck_keys_session"

    func response(_ path: String, _ code: UInt32, _ results: [String: DBusValue] = [:]) -> DBusMessage {
        DBusMessage(kind: .signal, path: path, interface: "org.freedesktop.portal.Request", member: "Response",
                    body: [.uint32(code), .dictionary(results)])
    }

    func calls(_ actions: [PortalMachine.Action]) -> [PortalMachine.Call] {
        actions.compactMap { if case .call(let call) = $0 { call } else { nil } }
    }

    func subscriptions(_ actions: [PortalMachine.Action]) -> [String] {
        actions.compactMap { if case .subscribe(let rule) = $0 { rule } else { nil } }
    }

    /// Runs the handshake to a started session; returns the machine and every action.
    func started(token: String?, issued: String? = "new-token") -> (PortalMachine, [PortalMachine.Action]) {
        var machine = PortalMachine()
        var actions = machine.start(uniqueName: ":1.42", restoreToken: token)
        actions += machine.signal(response("\(Self.request)/deck_keys_1", 0, ["session_handle": .string(Self.session)]))
        actions += machine.signal(response("\(Self.request)/deck_keys_2", 0))
        var results: [String: DBusValue] = ["devices": .uint32(1)]
        if let issued { results["restore_token"] = .string(issued) }
        actions += machine.signal(response("\(Self.request)/deck_keys_3", 0, results))
        return (machine, actions)
    }

    @Test func eachRequestIsSubscribedOnItsDocumentedPathBeforeItIsCalled() {
        let (machine, actions) = started(token: nil)
        #expect(machine.condition == .ready(restored: false))
        var subscribed: Set<String> = []
        for action in actions {
            switch action {
            case .subscribe(let rule): subscribed.insert(rule)
            case .call(let call):
                guard case .dictionary(let options, _)? = call.arguments.last, case .string(let token, _)? = options["handle_token"] else {
                    Issue.record("\(call.member) has no handle_token")
                    continue
                }
                #expect(subscribed.contains { $0.contains("path='\(Self.request)/\(token)'") && $0.contains("member='Response'") },
                        "\(call.member) was called before its Response was subscribed")
            default: break
            }
        }
        #expect(calls(actions).map(\.member) == ["CreateSession", "SelectDevices", "Start"])
        #expect(subscriptions(actions).contains { $0.contains("member='Closed'") && $0.contains(Self.session) })
        #expect(actions.contains(.saveToken("new-token")))
    }

    @Test(arguments: [nil, "saved-token"] as [String?])
    func selectDevicesAsksForTheKeyboardUntilRevokedWithTheSavedToken(token: String?) {
        let (_, actions) = started(token: token)
        let select = calls(actions)[1]
        #expect(select.arguments.first == .objectPath(Self.session))
        guard case .dictionary(let options, _)? = select.arguments.last else { return #expect(Bool(false), "no options") }
        #expect(options["types"] == .uint32(1))
        #expect(options["persist_mode"] == .uint32(2))
        #expect(options["restore_token"] == token.map { .string($0) })
    }

    @Test func aRestoredSessionSavesOnlyANewToken() {
        let (machine, same) = started(token: "kept", issued: "kept")
        #expect(machine.condition == .ready(restored: true))
        #expect(!same.contains { if case .saveToken = $0 { true } else { false } })
        #expect(started(token: "kept", issued: "next").1.contains(.saveToken("next")))
    }

    @Test func keysGoOutAsNotifyKeyboardKeysymOnceStartedAndNotBefore() {
        var waiting = PortalMachine()
        _ = waiting.start(uniqueName: ":1.42", restoreToken: nil)
        #expect(waiting.keys([PortalKey(0x74, pressed: true)]).isEmpty)
        let (machine, _) = started(token: nil)
        let sent = calls(machine.keys([PortalKey(0xFFE3, pressed: true), PortalKey(0xFFE3, pressed: false)]))
        #expect(sent.map(\.member) == ["NotifyKeyboardKeysym", "NotifyKeyboardKeysym"])
        #expect(sent[0].arguments == [.objectPath(Self.session), .dictionary([:]), .int32(0xFFE3), .uint32(1)])
        #expect(sent[1].arguments.last == .uint32(0))
    }

    @Test(arguments: [(UInt32(1), PortalCondition.denied), (2, .cancelled), (3, .failed("the portal ended Start with response code 3"))])
    func aRefusedStartIsItsCondition(code: UInt32, condition: PortalCondition) {
        var machine = PortalMachine()
        _ = machine.start(uniqueName: ":1.42", restoreToken: nil)
        _ = machine.signal(response("\(Self.request)/deck_keys_1", 0, ["session_handle": .string(Self.session)]))
        _ = machine.signal(response("\(Self.request)/deck_keys_2", 0))
        #expect(machine.signal(response("\(Self.request)/deck_keys_3", code)) == [.changed(condition)])
        #expect(machine.condition == condition)
        #expect(condition.problem != nil)
        #expect(machine.keys([PortalKey(0x74, pressed: true)]).isEmpty)
    }

    @Test func aResponseOnAnotherPathIsIgnored() {
        var machine = PortalMachine()
        _ = machine.start(uniqueName: ":1.42", restoreToken: nil)
        #expect(machine.signal(response("\(Self.request)/someone_else", 1)).isEmpty)
        #expect(machine.condition == .starting(restoring: false))
    }

    @Test func theSessionClosingThePortalLeavingAndTheBusBreakingEndTheSession() {
        var closed = started(token: nil).0
        #expect(closed.signal(DBusMessage(kind: .signal, path: Self.session, interface: "org.freedesktop.portal.Session",
                                          member: "Closed")) == [.changed(.closed)])
        var gone = started(token: nil).0
        #expect(gone.signal(DBusMessage(kind: .signal, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                        member: "NameOwnerChanged",
                                        body: [.string("org.freedesktop.portal.Desktop"), .string(":1.9"), .string("")]))
            == [.changed(.portalGone)])
        // The bus daemon stopping may first announce the portal's leaving, then the connection breaks.
        #expect(gone.busLost("ECONNRESET") == [.changed(.busLost("ECONNRESET"))], "the bus's loss is what the status says")
        #expect(gone.condition == .busLost("ECONNRESET"))
        var lost = started(token: nil).0
        #expect(lost.busLost("ECONNRESET") == [.changed(.busLost("ECONNRESET"))])
        #expect(lost.busLost("again").isEmpty)  // already ended: reported once
    }

    @Test func stoppingClosesAStartedSession() {
        var machine = started(token: nil).0
        let actions = machine.stop()
        #expect(calls(actions).map(\.member) == ["Close"])
        #expect(calls(actions).first?.path == Self.session)
        #expect(actions.last == .changed(.stopped))
    }

    @Test func aRefusedCallIsAFailureNamingIt() {
        var machine = PortalMachine()
        _ = machine.start(uniqueName: ":1.42", restoreToken: nil)
        let actions = machine.refused(.createSession, name: "org.freedesktop.DBus.Error.AccessDenied", message: "no")
        #expect(actions == [.changed(.failed("the portal refused CreateSession (org.freedesktop.DBus.Error.AccessDenied: no)"))])
    }
}
