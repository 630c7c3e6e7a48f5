import DeckProtocol
import LockGate
import Testing

@Suite("the decision table of PROTOCOL.md §6")
struct LockGateTests {
    static let gated: Set<RequestKind> = [.setButton, .clearButton, .moveButton, .press]

    /// Every request kind, locked and unlocked: edits and presses are refused
    /// while locked; hello, ping and every control request always pass.
    @Test(arguments: RequestKind.allCases, [false, true])
    func everyRequestInEveryState(kind: RequestKind, locked: Bool) {
        let decision = LockGate.decide(kind, locked: locked)
        if locked && Self.gated.contains(kind) {
            guard case .refuse(let message) = decision else {
                Issue.record("\(kind) passed while locked")
                return
            }
            #expect(message.contains("locked"))
            #expect(message.contains("deckctl unlock"))
        } else {
            #expect(decision == .pass)
        }
    }

    @Test func controlRequestsAreNeverGated() {
        for kind in RequestKind.allCases where kind.isControlOnly {
            #expect(!LockGate.isGated(kind))
        }
    }
}

@Suite("lock state from several sources")
struct LockStateTests {
    @Test func manualLockBroadcastsOnlyChanges() {
        var state = LockState()
        #expect(state.lock() == .broadcast(locked: true, source: .manual))
        #expect(state.lock() == LockState.Action.none)
        #expect(state.unlock() == .unlocked(.broadcast(locked: false, source: .manual)))
        #expect(state.unlock() == .unlocked(LockState.Action.none))
        #expect(!state.isLocked)
    }

    @Test func probeLocksAndUnlockCannotOverrideIt() {
        var state = LockState()
        #expect(state.probeReported(.locked) == .broadcast(locked: true, source: .probe))
        #expect(state.unlock() == .stillLockedByProbe)
        #expect(state.isLocked)
        #expect(state.probeReported(.unlocked) == .broadcast(locked: false, source: .probe))
        #expect(!state.isLocked)
    }

    @Test func eitherSourceKeepsTheLock() {
        var state = LockState()
        _ = state.lock()
        #expect(state.probeReported(.locked) == LockState.Action.none)
        #expect(state.probeReported(.unlocked) == LockState.Action.none)  // manual still holds it
        #expect(state.isLocked)
        _ = state.probeReported(.locked)
        #expect(state.unlock() == .stillLockedByProbe)
        #expect(state.probeReported(.none) == .broadcast(locked: false, source: .probe))
    }

    /// Every sequence of four inputs: `isLocked` always equals "manual or probe
    /// locked", and a broadcast comes exactly when that value changes.
    @Test func everyShortSequenceAgreesWithTheRule() {
        enum Input: CaseIterable { case lock, unlock, probeLocked, probeUnlocked, probeNone }
        func all(_ length: Int) -> [[Input]] {
            length == 0 ? [[]] : all(length - 1).flatMap { prefix in Input.allCases.map { prefix + [$0] } }
        }
        for sequence in all(4) {
            var state = LockState()
            var manual = false
            var probe = LockState.ProbeReading.none
            for input in sequence {
                let before = state.isLocked
                var action: LockState.Action
                switch input {
                case .lock: manual = true; action = state.lock()
                case .unlock:
                    manual = false
                    switch state.unlock() {
                    case .unlocked(let done): action = done
                    case .stillLockedByProbe: action = before ? .none : .broadcast(locked: true, source: .manual)
                    }
                case .probeLocked: probe = .locked; action = state.probeReported(.locked)
                case .probeUnlocked: probe = .unlocked; action = state.probeReported(.unlocked)
                case .probeNone: probe = .none; action = state.probeReported(.none)
                }
                let locked = manual || probe == .locked
                #expect(state.isLocked == locked)
                #expect((action != .none) == (before != locked))
            }
        }
    }

    @Test(arguments: [
        ("true", LockState.ProbeReading.locked), ("1\n", .locked), ("  Locked ", .locked), ("yes\nmore", .locked),
        ("false", .unlocked), ("0", .unlocked), ("UNLOCKED\n", .unlocked), ("no", .unlocked),
    ])
    func probeOutputIsRead(_ output: String, _ reading: LockState.ProbeReading) {
        #expect(LockState.ProbeReading(probeOutput: output) == reading)
    }

    @Test(arguments: ["", "\n\n", "maybe", "2", "true false"])
    func unclearProbeOutputIsNotAReading(_ output: String) {
        #expect(LockState.ProbeReading(probeOutput: output) == nil)
    }
}
