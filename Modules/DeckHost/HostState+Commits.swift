#if canImport(FoundationEssentials)
import FoundationEssentials  // Date, a snapshot's time
#else
import Foundation
#endif
import DeckProtocol
import DeckSnapshots
import DeckTransport

extension HostState {
    /// The input the shell hands the state, with the commit pipeline's part
    /// decided too: ``handle(_:)`` names the outcomes for the pipeline
    /// (`.commit`, `.heard`), and this hands them to
    /// `commits` at once, so the shell only ever sees what to perform
    /// (`.outcome`, `.writeBatch`, `.armCommitTimer`, `.pauseReading`,
    /// `.resumeReading`, effects; docs/host.md, "The host's structure").
    mutating func process(_ input: HostInput) -> [HostAction] {
        // A timer that fires is not armed any more: nothing to cancel.
        let armed: Int? = if case .commitTimerFired = input { nil } else { commits.armedTimer }
        // Two steps: `self` is read for the call before its arguments would change it.
        let actions = schedule(handle(input))
        return timersSettled(actions, armedBefore: armed)
    }

    /// A gather timer that the same input made stale is not armed at all (a
    /// lone device's edit arms one as it queues and ends the hold as it is
    /// heard, right after), and one armed before that is stale now is
    /// cancelled: a stale timer would wake the loop for nothing.
    private func timersSettled(_ actions: [HostAction], armedBefore: Int?) -> [HostAction] {
        let armed = commits.armedTimer
        var result = actions.filter { action in
            guard case .armCommitTimer(_, let generation) = action else { return true }
            return generation == armed
        }
        if let armedBefore, armedBefore != armed { result.append(.cancelCommitTimer) }
        return result
    }

    /// The stop reached ``StopStep/releaseCommits``: a batch held for the
    /// gather goes now, then the throttle's resumes (``process(_:)`` cancels
    /// the gather timer the release made stale).
    mutating func releaseHeldCommits() -> [HostAction] {
        scheduled(commits.release()) + settled()
    }

    /// `actions` with every pipeline entry (`.commit`, `.heard`) replaced by
    /// what the scheduler decided for it, in place, then the throttle's resumes.
    mutating func schedule(_ actions: [HostAction]) -> [HostAction] {
        var result: [HostAction] = []
        var touched = false
        for action in actions {
            switch action {
            case .commit(let commit):
                touched = true
                // Written at the rules' clock (to the second, as a listing shows it).
                let time = Date(timeIntervalSince1970: Double(environment.utcNow()))
                let write = commit.writeReason.flatMap { reason in commit.outcome.live?.snapshot(reason: reason, time: time) }
                result += scheduled(commits.submit(commit.outcome, write: write, editor: commit.editor,
                                                   sender: commit.sender, now: environment.instantNow()))
            case .heard(let device):
                touched = true
                result += scheduled(commits.heard(from: device, now: environment.instantNow()))
            default:
                result.append(action)
            }
        }
        return touched ? result + settled() : result
    }

    /// The disk thread finished a batch: the notices the store queued and a
    /// marker that could not be written are said, then every entry now
    /// durable is performed (or refused, after a failure), and the next batch
    /// goes or is held for the devices just acknowledged (not while stopping).
    mutating func batchFinished(receipts: [DeckSnapshots.SnapshotInfo], failure: (any Error)?, markerFailure: String?,
                                notices: [String]) -> [HostAction] {
        var actions: [HostAction] = notices.map { .note($0, level: .warning) }
        if let markerFailure { actions.append(.log(.warning, "could not record the last live profile: \(markerFailure)")) }
        actions += scheduled(commits.batchFinished(receipts: receipts, failure: failure, now: environment.instantNow(),
                                                   stopping: stopping))
        return actions + settled()
    }

    /// The gather timer armed as `generation` fired: a batch still held goes.
    mutating func commitTimerFired(_ generation: Int) -> [HostAction] {
        scheduled(commits.timerFired(generation, now: environment.instantNow())) + settled()
    }

    /// `connection` closed: a batch held for it goes if it was the last one awaited.
    mutating func commitsLeft(by connection: ConnectionID) -> [HostAction] {
        scheduled(commits.left(connection, now: environment.instantNow()))
    }

    /// Senders paused by the throttle read again once little waits.
    private mutating func settled() -> [HostAction] {
        scheduled(commits.settled())
    }

    /// The scheduler's actions as the shell's: a failed write refuses its
    /// entry and everything after it, then `head` goes back to what is durable
    /// and every client is shown it.
    private mutating func scheduled(_ actions: [CommitScheduler<Outcome>.Action]) -> [HostAction] {
        var result: [HostAction] = []
        // The last state performed before a failure: `head` goes back to it,
        // since the shell commits it (``HostInput/committed(_:written:)``)
        // only as it performs `.outcome`, after this returns.
        var durable = live.committed
        for action in actions {
            switch action {
            case .write(let batch):
                result.append(.writeBatch(batch))
            case let .perform(outcome, receipt):
                if let state = outcome.live { durable = state }
                result.append(.outcome(outcome, written: receipt))
            case .writeFailed(let error):
                result.append(.log(.error, "could not save the layout: \(error); the edits waiting for the disk were refused"))
            case let .fail(outcome, error):
                result += outcome.ifWriteFails.flatMap { failed($0, because: error) }
            case .rolledBack:
                // Nothing half-applied: everything not on disk is forgotten, and
                // every client is shown the layout that is.
                live.rollBack(to: durable)
                result.append(.perform(.broadcastLayout))
            case let .armTimer(delay, generation):
                result.append(.armCommitTimer(after: delay, generation: generation))
            case .pause(let id):
                result.append(.pauseReading(id, because: .throttled))
            case .resume(let ids):
                result += ids.map { .resumeReading($0, because: .throttled) }
            }
        }
        Self.oneLayoutAfterEdits(&result)
        return result
    }

    /// The layouts a step's outcomes owe after their edits go out once, with
    /// the last outcome that owes one, to everyone any of them owed it: only
    /// the last is current (PROTOCOL.md §5 asks for the current layout after
    /// the reply). Eight devices' edits finishing in one batch sent each
    /// device the first edit's layout and then the last's: half the bytes a
    /// batch wrote to its sockets, and a layout encoded per edit. A sender
    /// with a later reply in the step still gets a layout right after each
    /// earlier one (to it alone): a client that sends several edits at once
    /// reads each reply and then a layout, as §5 says for every edit.
    static func oneLayoutAfterEdits(_ actions: inout [HostAction]) {
        // A lone outcome (one device's edit) keeps its effects as they are, and costs no copy of them.
        guard actions.count(where: { if case .outcome = $0 { true } else { false } }) > 1 else { return }
        var owed: [ConnectionID] = [], places: [(action: Int, effect: Int, senders: [ConnectionID])] = []
        for (position, action) in actions.enumerated() {
            guard case .outcome(let outcome, _) = action else { continue }
            for (index, effect) in outcome.effects.enumerated() {
                guard case .layoutAfterEdit(let senders) = effect else { continue }
                owed += senders.filter { !owed.contains($0) }
                places.append((position, index, senders))
            }
        }
        guard let last = places.last, places.count > 1 else { return }
        // From the end, so that replacing an effect with several leaves the places before it where they are;
        // `later` gathers the senders of the places after the one at hand.
        var later: [ConnectionID] = []
        for place in places.reversed() {
            guard case .outcome(var outcome, let written) = actions[place.action] else { continue }
            if place.action == last.action && place.effect == last.effect {
                outcome.effects[place.effect] = .layoutAfterEdit(owed)
            } else {
                outcome.effects.replaceSubrange(place.effect...place.effect,
                                                with: place.senders.filter(later.contains).map(Effect.layoutTo))
            }
            actions[place.action] = .outcome(outcome, written: written)
            later += place.senders
        }
    }

    /// What an entry whose write failed does instead of its effects.
    private func failed(_ failure: WriteFailure, because error: any Error) -> [HostAction] {
        switch failure {
        case let .refuse(connection, id, request):
            guard sessions[connection] != nil else { return [] }
            let refused = ProtocolError(.internal, "could not save the layout: \(error); nothing changed", id: id)
            return refusal(refused, request: request, to: connection).map { .perform($0) }
        case .actionFailed(let press):
            return [.perform(.actionEnded(press, .failed(reason: "could not save the layout: \(error)")))]
        }
    }
}
