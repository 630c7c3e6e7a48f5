import DeckModel
import DeckProtocol
import LockGate
import Testing
@testable import DeckHost
@testable import DeckTransport

/// The lock rules (PROTOCOL.md §6): the manual lock, the probe, and what the lock gate refuses.
@Suite("HostState rules: the lock")
struct HostRulesLockTests {
    typealias R = Rules

    @Test func lockingAnswersOkThenBroadcastsLiftsHoldsAndSaysWho() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.control, R.message(.lock)))
        #expect(host.lock.isLocked)
        #expect(actions == [.commit(Commit(Outcome([
            .ok(R.control, 1, withRevision: false), .broadcastLock(true), .liftAllHolds,
            .event(.lock(locked: true, source: .manual, by: R.deckctl)), .log(.info, "locked by deckctl"),
        ]), sender: R.control))])
    }

    @Test func lockingTwiceAnswersOkAndBroadcastsNothing() throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        #expect(host.handle(.request(R.control, R.message(.lock, id: 2))) == [
            .commit(Commit(Outcome([.ok(R.control, 2, withRevision: false)]), sender: R.control)),
        ])
    }

    @Test func unlockingBroadcastsAndLiftsNothing() throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        let actions = host.handle(.request(R.control, R.message(.unlock, id: 2)))
        #expect(!host.lock.isLocked)
        #expect(actions == [.commit(Commit(Outcome([
            .ok(R.control, 2, withRevision: false), .broadcastLock(false),
            .event(.lock(locked: false, source: .manual, by: R.deckctl)), .log(.info, "unlocked by deckctl"),
        ]), sender: R.control))])
    }

    @Test func unlockingWhileTheProbeSaysLockedIsRefused() throws {
        var host = try R.host()
        _ = host.handle(.probe(.reading(.locked)))
        #expect(host.handle(.request(R.control, R.message(.unlock))) == [
            R.refused(.locked, "the manual lock is off, but the desktop session is locked (lock probe), so the host stays locked",
                      request: "unlock", by: R.control, who: R.deckctl),
        ])
        #expect(host.lock.isLocked)
    }

    @Test func theProbeLockingIsABroadcastWithNoOneToName() throws {
        var host = try R.host()
        #expect(host.handle(.probe(.reading(.locked))) == [
            .log(.debug, "the lock probe says locked"),
            .commit(Commit(Outcome(Effect.lockChanged(true, source: .probe, by: nil, log: "locked: the desktop session is locked")))),
        ])
    }

    @Test func theProbeUnlockingAfterItLockedBroadcastsTheUnlock() throws {
        var host = try R.host()
        _ = host.handle(.probe(.reading(.locked)))
        let actions = host.handle(.probe(.reading(.unlocked)))
        #expect(actions.last == .commit(Commit(Outcome(Effect.lockChanged(false, source: .probe, by: nil,
                                                                          log: "unlocked: the desktop session is unlocked")))))
    }

    @Test func theSameProbeReadingTwiceOnlyLogs() throws {
        var host = try R.host()
        _ = host.handle(.probe(.reading(.locked)))
        #expect(host.handle(.probe(.reading(.locked))) == [.log(.debug, "the lock probe says locked")])
    }

    @Test func aFailedProbeKeepsTheLockAsItWas() throws {
        var host = try R.host()
        #expect(host.handle(.probe(.failed("the lock probe exited with status 3"))) == [
            .log(.warning, "the lock probe exited with status 3; the lock stays as it was"),
        ])
        #expect(!host.lock.isLocked)
    }

    static let gated: [ClientRequest] = [
        .setButton(page: 0, index: 8, button: Rules.files),
        .clearButton(page: 0, index: 0, expecting: nil),
        .moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: Rules.files),
        .press(page: 0, index: 1, button: nil, phase: .tap),
    ]

    @Test(arguments: gated)
    func whileLockedEditsAndPressesAreRefusedWithTheLayoutToTheSenderOnly(_ request: ClientRequest) throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        let message = R.message(request, id: 7)
        guard case .refuse(let reason) = LockGate.decide(message.kind, locked: true) else {
            Issue.record("\(message.kind) is not gated")
            return
        }
        #expect(host.handle(.request(R.phone, message)) == [
            R.refused(.locked, reason, id: 7, request: message.kind.rawValue, by: R.phone, who: R.kim, then: .toSender),
        ])
        #expect(host.live.head.revision == 5)
    }

    @Test(arguments: [ClientRequest.ping, .status, .profiles])
    func whileLockedOtherRequestsAreAnswered(_ request: ClientRequest) throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        let effects = try #require(R.commit(host.handle(.request(R.control, R.message(request, id: 3))))).outcome.effects
        #expect(!effects.contains { if case .send(_, .error) = $0 { true } else { false } })
    }

    /// §6 first: an invalid button in a locked host's edit is `locked`, as a stale one would be.
    @Test func whileLockedAnInvalidEditLineIsRefusedAsLocked() throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        let actions = host.handle(.refusedLine(R.phone, ProtocolError(.invalid, "setButton: a name may not be blank", id: 4,
                                                                      type: "setButton")))
        guard case .send(R.phone, .error(.some(4), .locked, _, _)) = R.commit(actions)?.outcome.effects.first else {
            Issue.record("expected locked, got \(actions)")
            return
        }
        #expect(R.commit(actions)?.outcome.effects[1] == .layoutTo(R.phone))
    }

    /// §6 names the request kinds, not their contents: a line of any gated
    /// kind whose button breaks a rule is `locked` while locked, with the
    /// layout to its sender only; unlocked, the same line is `invalid`, and
    /// for an edit the layout goes to everyone (§5).
    @Test(arguments: ["setButton", "moveButton", "clearButton", "press"])
    func anInvalidLineOfAGatedKindIsLockedThenInvalidOnceUnlocked(_ type: String) throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        let line = ProtocolError(.invalid, "\(type): a name may not be blank", id: "l", type: type)
        guard case .refuse(let gate) = LockGate.decide(try #require(RequestKind(rawValue: type)), locked: true) else {
            Issue.record("\(type) is not gated")
            return
        }
        #expect(host.handle(.refusedLine(R.phone, line)) == [
            R.refused(.locked, gate, id: "l", request: type, by: R.phone, who: R.kim, then: .toSender),
        ])
        _ = host.handle(.request(R.control, R.message(.unlock, id: 2)))
        #expect(host.handle(.refusedLine(R.phone, line)) == [
            .commit(Commit(Outcome(Effect.refusal(line, request: type, to: R.phone, by: R.kim, who: "kim",
                                                  then: type == "press" ? .none : .afterEdit)), sender: R.phone)),
        ])
    }
}
