import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// The press rules (PROTOCOL.md §5, docs/host.md "Presses and actions").
@Suite("HostState rules: presses")
struct HostRulesPressTests {
    typealias R = Rules

    static func request(_ button: DeckButton, at index: Int, _ phase: PressPhase, by who: ClientInfo = Rules.kim) -> ActionRequest {
        ActionRequest(page: 0, index: index, button: button, phase: phase, by: who)
    }

    static func press(_ index: Int, _ phase: PressPhase = .tap, expecting: DeckButton? = nil) -> ClientMessage {
        Rules.message(.press(page: 0, index: index, button: expecting, phase: phase))
    }

    /// What every accepted press starts with: `ok` without a revision, the event, the log line.
    static func accepted(_ button: DeckButton, at index: Int, _ phase: PressPhase = .tap) -> [Effect] {
        [.ok(Rules.phone, 1, withRevision: false),
         .event(.press(page: 0, index: index, button: button.name, phase: phase, by: Rules.kim)),
         .log(.info, "pressed '\(button.name)' at 0/\(index)" + (phase == .tap ? "" : " (\(phase.rawValue))") + " by kim")]
    }

    @Test func aRunButtonStartsItsAction() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, Self.press(1)))
        #expect(actions == [.commit(Commit(Outcome(Self.accepted(R.term, at: 1) + [.startAction(Self.request(R.term, at: 1, .tap))]),
                                           sender: R.phone))])
    }

    @Test func anOpenButtonStartsItsActionToo() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, Self.press(0)))
        #expect(R.commit(actions)?.outcome.effects.last == .startAction(Self.request(R.files, at: 0, .tap)))
    }

    @Test func aPageButtonSendsThePageToThePresserOnly() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, Self.press(2)))
        #expect(actions == [.commit(Commit(Outcome(Self.accepted(R.next, at: 2) + [
            .send(R.phone, .showPage(page: 1)), .actionEnded(Self.request(R.next, at: 2, .tap), .delivered),
        ]), sender: R.phone))])
    }

    @Test func aProfileButtonSwitchesInPipelineOrder() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, Self.press(3)))
        #expect(R.commit(actions)?.outcome.effects.last == .switchProfile("stream", press: Self.request(R.stream, at: 3, .tap)))
    }

    @Test(arguments: [PressPhase.tap, .down, .up])
    func aPluginButtonGetsEveryPhase(_ phase: PressPhase) throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, Self.press(4, phase)))
        let request = Self.request(R.talk, at: 4, phase)
        let tracked: [Effect] = phase == .tap ? [] : [.trackHold(request, of: R.phone)]
        #expect(actions == [.commit(Commit(Outcome(Self.accepted(R.talk, at: 4, phase) + tracked + [.pressPlugin(request)]),
                                           sender: R.phone))])
    }

    @Test func theUpEdgeOfABuiltInActionDoesNothing() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, Self.press(1, .up)))
        #expect(actions == [.commit(Commit(Outcome(Self.accepted(R.term, at: 1, .up) + [
            .trackHold(Self.request(R.term, at: 1, .up), of: R.phone),
            .log(.debug, "'Term': the up edge of a run action does nothing"),
        ]), sender: R.phone))])
    }

    @Test func theDownEdgeOfABuiltInActionRunsIt() throws {
        var host = try R.host()
        let effects = try #require(R.commit(host.handle(.request(R.phone, Self.press(1, .down)))))
        #expect(effects.outcome.effects.suffix(2) == [.trackHold(Self.request(R.term, at: 1, .down), of: R.phone),
                                                      .startAction(Self.request(R.term, at: 1, .down))])
    }

    /// deckctl's `press --down` and `--up` come on two connections: no hold is tracked for them.
    @Test func aControlClientsDownIsNotHeld() throws {
        var host = try R.host()
        let effects = try #require(R.commit(host.handle(.request(R.control, Self.press(4, .down))))).outcome.effects
        #expect(!effects.contains { if case .trackHold = $0 { true } else { false } })
        #expect(effects.last == .pressPlugin(Self.request(R.talk, at: 4, .down, by: R.deckctl)))
    }

    @Test func aPressOnAnEmptySlotIsEmpty() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.phone, Self.press(9))) == [
            R.refused(.empty, "slot 0/9 is empty; there is nothing to run", request: "press", by: R.phone, who: R.kim),
        ])
    }

    @Test func aPressOutOfRangeIsOutOfRange() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, R.message(.press(page: 5, index: 0, button: nil, phase: .tap))))
        guard case .send(R.phone, .error(.some(1), .outOfRange, _, _)) = R.commit(actions)?.outcome.effects.first else {
            Issue.record("expected outOfRange, got \(actions)")
            return
        }
    }

    /// A press that names its button is checked first: a slot emptied since the device drew it is `stale`, not `empty`.
    @Test func aPressNamingAButtonTheSlotNoLongerHoldsIsStale() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.phone, Self.press(9, expecting: R.files))) == [
            R.refused(.stale, DeckModelError.stale(page: 0, index: 9, expected: "Files").description, request: "press",
                      by: R.phone, who: R.kim),
        ])
    }

    @Test func aPressNamingTheRightButtonGoesAhead() throws {
        var host = try R.host()
        let effects = try #require(R.commit(host.handle(.request(R.phone, Self.press(1, expecting: R.term))))).outcome.effects
        #expect(effects.first == .ok(R.phone, 1, withRevision: false))
    }

    /// A press looks at `head`: a button set a moment ago (not yet durable) can be pressed.
    @Test func aPressSeesAnEditStillOnItsWayToDisk() throws {
        var host = try R.host()
        let button = DeckButton(name: "Fresh", action: .run(command: "true"))
        _ = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 8, button: button))))
        let effects = try #require(R.commit(host.handle(.request(R.tablet, R.message(.press(page: 0, index: 8, button: nil,
                                                                                             phase: .tap)))))).outcome.effects
        #expect(effects.last == .startAction(ActionRequest(page: 0, index: 8, button: button, phase: .tap, by: R.lee)))
    }

    /// PROTOCOL.md §4: with `button`, the slot must still hold it — emptied
    /// since the device drew it (`stale`, in every phase) or holding another
    /// button now; without `button` an emptied slot is `empty`. A refused
    /// press is its refusal only: nothing runs.
    @Test func aPressOnASlotThatChangedSinceTheDeviceDrewItRunsNothing() throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.clearButton(page: 0, index: 1, expecting: nil))))
        let stale = "slot 0/1 no longer holds 'Term'"
        for phase in [PressPhase.tap, .down] {
            #expect(host.handle(.request(R.phone, Self.press(1, phase, expecting: R.term))) == [
                R.refused(.stale, stale, request: "press", by: R.phone, who: R.kim),
            ])
        }
        #expect(host.handle(.request(R.phone, Self.press(1))) == [
            R.refused(.empty, "slot 0/1 is empty; there is nothing to run", request: "press", by: R.phone, who: R.kim),
        ])
        _ = host.handle(.request(R.control, R.message(.setButton(page: 0, index: 1, button: R.files))))
        #expect(host.handle(.request(R.phone, Self.press(1, expecting: R.term))) == [
            R.refused(.stale, stale, request: "press", by: R.phone, who: R.kim),
        ])
        // The button that is there now is what a press without `button` runs.
        let effects = try #require(R.commit(host.handle(.request(R.phone, Self.press(1))))).outcome.effects
        #expect(effects.last == .startAction(Self.request(R.files, at: 1, .tap)))
    }

    @Test func aPressChangesNoRevision() throws {
        var host = try R.host()
        _ = host.handle(.request(R.phone, Self.press(1)))
        #expect(host.live.head.revision == 5 && host.live.committed.revision == 5)
    }
}

/// How an action ended: its `action` event and log line (docs/host.md, "Presses and actions").
@Suite("HostState rules: the end of an action")
struct HostRulesActionEndTests {
    static let cases: [(DeckButton, ActionOutcome, String?, LogLevel, String)] = [
        (Rules.term, .exited(status: 0), nil, .info, "'Term' (run) exited with status 0"),
        (Rules.term, .exited(status: 2), nil, .warning, "'Term' (run) exited with status 2"),
        (Rules.term, .signalled(signal: 9), nil, .warning, "'Term' (run) was ended by signal 9"),
        (Rules.term, .timedOut(seconds: 30), nil, .warning, "'Term' (run) did not finish within 30 s and was killed with its process group"),
        (Rules.term, .timedOut(seconds: 0.5), nil, .warning, "'Term' (run) did not finish within 0.5 s and was killed with its process group"),
        (Rules.talk, .delivered, nil, .info, "'Talk' (plugin) was delivered to its plugin"),
        (Rules.next, .delivered, nil, .info, "'Next' (page) sent the page to the device that pressed it"),
        (Rules.stream, .delivered, nil, .info, "'Stream' (profile) is done"),
        (Rules.files, .openerMissing, nil, .warning, "'Files' (open) found no opener (install xdg-utils, or pass --opener COMMAND)"),
        (Rules.talk, .pluginUnavailable(plugin: "talk"), "is stopping with the host", .warning,
         "'Talk' (plugin) could not reach plugin 'talk': it is stopping with the host"),
        (Rules.stream, .failed(reason: "no such profile"), nil, .warning, "'Stream' (profile) failed: no such profile"),
    ]

    @Test(arguments: cases)
    func anEndedActionIsItsEventThenALogLine(_ button: DeckButton, _ outcome: ActionOutcome, _ detail: String?, _ level: LogLevel,
                                             _ line: String) {
        let request = ActionRequest(page: 0, index: 1, button: button, phase: .tap, by: Rules.kim)
        #expect(HostState.actionEnded(request, outcome, detail: detail) == [
            .perform(.event(.action(page: 0, index: 1, button: button.name, action: button.action.kind, outcome: outcome,
                                    by: Rules.kim))),
            .log(level, line),
        ])
    }
}
