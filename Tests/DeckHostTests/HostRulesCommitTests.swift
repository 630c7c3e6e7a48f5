#if canImport(FoundationEssentials)
import FoundationEssentials  // Date, in the receipts
#else
import Foundation
#endif
import DeckModel
import DeckProtocol
import DeckSnapshots
import Testing
@testable import DeckHost
@testable import DeckTransport

/// The commit pipeline's part of the rules (docs/host.md, "One edit, and
/// group commit") as ``HostState/process(_:)`` decides it: what goes to the
/// disk and when, what a failed write refuses, how a batch is held for a
/// device about to send and what ends the hold, the throttle.
@Suite("HostState rules: the commit pipeline")
struct HostRulesCommitTests {
    typealias R = Rules

    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "No space left on device (ENOSPC)" }
    }

    /// `name` set at 0/`index` by `connection` (id `request`): the state it
    /// makes and the snapshot entry the disk is handed for it.
    static func set(_ host: inout HostState, _ name: String, at index: Int, by connection: ConnectionID,
                    request: RequestID = 1) -> (actions: [HostAction], state: LiveState, entry: SnapshotEntry) {
        let button = DeckButton(name: name, action: .run(command: "true"))
        let actions = host.process(.request(connection, R.message(.setButton(page: 0, index: index, button: button), id: request)))
        return (actions, host.live.head, host.live.head.snapshot(reason: "setButton", time: Date(timeIntervalSince1970: 1000)))
    }

    static func receipt(_ state: LiveState, generation: Int) -> DeckSnapshots.SnapshotInfo {
        DeckSnapshots.SnapshotInfo(profile: state.profile, generation: generation, revision: state.revision,
                                   time: Date(timeIntervalSince1970: 1000), reason: "setButton", source: nil, bytes: 600)
    }

    static func finished(_ receipts: [DeckSnapshots.SnapshotInfo], failure: (any Error)? = nil) -> HostInput {
        .batchFinished(receipts: receipts, failure: failure, markerFailure: nil, notices: [])
    }

    /// The outcomes among `actions`, by the first effect's shape (`ok` to whom, or the refusal's sender).
    static func outcomes(_ actions: [HostAction]) -> [Outcome] {
        actions.compactMap { if case .outcome(let outcome, _) = $0 { outcome } else { nil } }
    }

    static func internalRefusal(_ request: String, to connection: ConnectionID, who: ClientInfo,
                                id: RequestID = 1) -> [HostAction] {
        let error = ProtocolError(.internal, "could not save the layout: \(DiskFull()); nothing changed", id: id)
        return Effect.refusal(error, request: request, to: connection, by: who, who: who.name, then: .none).map { .perform($0) }
    }

    @Test func aFirstEditGoesToTheDiskAtOnceAndIsPerformedOnlyOnceDurable() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        #expect(first.actions == [.writeBatch([first.entry])])
        let receipt = Self.receipt(first.state, generation: 1)
        let actions = host.process(Self.finished([receipt]))
        guard case .outcome(let outcome, let written) = try #require(actions.first) else {
            Issue.record("\(actions)")
            return
        }
        #expect(actions.count == 1 && written == receipt && outcome.live == first.state)
        #expect(outcome.effects.first == .ok(R.phone, 1, withRevision: true))
    }

    @Test func aFailedWriteRefusesItAndEverythingQueuedAfterItAndRollsBackWithOneBroadcast() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        // Queued behind the batch on disk: an edit of the tablet's and a ping.
        #expect(Self.set(&host, "B", at: 8, by: R.tablet, request: "b").actions.isEmpty)
        #expect(host.process(.request(R.control, R.message(.ping, id: "p"))).isEmpty)
        #expect(first.actions == [.writeBatch([first.entry])])
        let actions = host.process(Self.finished([], failure: DiskFull()))
        #expect(actions == [.log(.error, "could not save the layout: \(DiskFull()); the edits waiting for the disk were refused")]
            + Self.internalRefusal("setButton", to: R.phone, who: R.kim)
            + Self.internalRefusal("setButton", to: R.tablet, who: R.lee, id: "b")
            + [.outcome(Outcome([.send(R.control, .pong(id: "p"))]), written: nil), .perform(.broadcastLayout)])
        #expect(host.live.head == host.live.committed && host.live.head.revision == 5)
        #expect(host.commits.isEmpty)
        // The next edit tries again, on top of what is durable.
        let again = Self.set(&host, "C", at: 7, by: R.phone, request: 2)
        #expect(again.state.revision == 6 && again.actions == [.writeBatch([again.entry])])
    }

    @Test func aBatchHeldForADeviceIsReleasedByTheTimerAndAFailureKeepsWhatWasWrittenBeforeIt() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        let finished = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        #expect(Self.outcomes(finished).map(\.live) == [first.state])
        // The phone is awaited now: the tablet's two edits wait for it, up to the window.
        let second = Self.set(&host, "B", at: 8, by: R.tablet, request: "b")
        #expect(second.actions == [.armCommitTimer(after: .milliseconds(2), generation: 1)])
        let third = Self.set(&host, "C", at: 9, by: R.tablet, request: "c")
        #expect(third.actions.isEmpty)
        #expect(host.process(.commitTimerFired(1)) == [.writeBatch([second.entry, third.entry])])
        #expect(host.process(.commitTimerFired(1)).isEmpty)  // stale: the hold is over
        // B reached the disk, C did not: B is performed, C refused, and head is B (its commit is the shell's to perform).
        let actions = host.process(Self.finished([Self.receipt(second.state, generation: 2)], failure: DiskFull()))
        #expect(Self.outcomes(actions).map(\.live) == [second.state])
        #expect(actions.filter { $0 == .perform(.broadcastLayout) }.count == 1)
        let refusal = Self.internalRefusal("setButton", to: R.tablet, who: R.lee, id: "c")
        #expect(actions.firstRange(of: refusal) != nil)
        #expect(host.live.head == second.state)
    }

    @Test func theEditsOfOneBatchSendOneLayoutAfterTheirRepliesToEveryoneTheyOwedIt() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        _ = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        // The phone is awaited: the tablet's edit waits for the phone's, and both go as one batch.
        let tablets = Self.set(&host, "B", at: 8, by: R.tablet, request: "b")
        let phones = Self.set(&host, "C", at: 9, by: R.phone, request: 2)
        #expect(phones.actions.first == .writeBatch([tablets.entry, phones.entry]))
        let actions = host.process(Self.finished([Self.receipt(tablets.state, generation: 2),
                                                  Self.receipt(phones.state, generation: 3)]))
        let effects = Self.outcomes(actions).map(\.effects)
        try #require(effects.count == 2)
        let layouts = effects.map { $0.filter { if case .layoutAfterEdit = $0 { true } else { false } } }
        // The tablet's reply, and no layout yet; then the phone's reply and the one layout, owed to both.
        #expect(effects[0].first == .ok(R.tablet, "b", withRevision: true) && layouts[0].isEmpty)
        #expect(Array(effects[1].prefix(2)) == [.ok(R.phone, 2, withRevision: true), .layoutAfterEdit([R.tablet, R.phone])])
        #expect(layouts[1].count == 1)
        // Everything else each outcome does is still there, in its order.
        #expect(effects[0].count == 3 && effects[1].count == 4)
    }

    /// PROTOCOL.md §5 for a client that sends several edits at once: each
    /// reply, then a layout; the others get the step's one layout.
    @Test func aSenderWithALaterReplyInTheStepGetsALayoutAfterEachReply() {
        func edit(_ id: ConnectionID, _ request: Int) -> HostAction {
            .outcome(Outcome([.ok(id, .int(request), withRevision: true), .layoutAfterEdit([id])]), written: nil)
        }
        var actions = [edit(R.phone, 1), edit(R.tablet, 2), edit(R.phone, 3), edit(R.phone, 4)]
        HostState.oneLayoutAfterEdits(&actions)
        #expect(Self.outcomes(actions).map(\.effects) == [
            [.ok(R.phone, .int(1), withRevision: true), .layoutTo(R.phone)],
            [.ok(R.tablet, .int(2), withRevision: true)],
            [.ok(R.phone, .int(3), withRevision: true), .layoutTo(R.phone)],
            [.ok(R.phone, .int(4), withRevision: true), .layoutAfterEdit([R.phone, R.tablet])],
        ])
    }

    @Test func aLoneOutcomeKeepsItsLayoutWhereItIs() {
        let lone = Outcome([.ok(R.phone, 1, withRevision: true), .layoutAfterEdit([R.phone]), .log(.info, "moved")])
        var actions: [HostAction] = [.outcome(lone, written: nil), .perform(.broadcastLayout)]
        let before = actions
        HostState.oneLayoutAfterEdits(&actions)
        #expect(actions == before)
    }

    @Test func aBatchHeldForADeviceGoesWhenThatDeviceSendsItsNextEdit() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        _ = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        let tablets = Self.set(&host, "B", at: 8, by: R.tablet, request: "b")
        #expect(tablets.actions == [.armCommitTimer(after: .milliseconds(2), generation: 1)])
        #expect(host.commits.isHolding)
        let phones = Self.set(&host, "C", at: 9, by: R.phone, request: 2)
        // The timer the tablet's edit armed is stale now: cancelled, so it does not wake the loop.
        #expect(phones.actions == [.writeBatch([tablets.entry, phones.entry]), .cancelCommitTimer])
        #expect(host.process(.commitTimerFired(1)).isEmpty)
    }

    /// The stop's `.releaseCommits` step: a batch held for a device goes at once, and the gather timer is cancelled.
    @Test func theStopReleasesABatchHeldForADevice() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        _ = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        let tablets = Self.set(&host, "B", at: 8, by: R.tablet, request: "b")
        #expect(host.commits.isHolding)
        #expect(host.process(.releaseHeldCommits) == [.writeBatch([tablets.entry]), .cancelCommitTimer])
        #expect(!host.commits.isHolding)
        #expect(host.process(.releaseHeldCommits).isEmpty)  // nothing more to release
    }

    @Test func aBatchHeldForADeviceGoesWhenThatDeviceCloses() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        _ = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        let tablets = Self.set(&host, "B", at: 8, by: R.tablet, request: "b")
        #expect(!tablets.actions.isEmpty && host.commits.isHolding)
        let actions = host.process(.closed(R.phone, reason: .peerClosed, closeReason: nil, now: 0))
        #expect(actions.first == .writeBatch([tablets.entry]) && actions.last == .cancelCommitTimer)
        #expect(!host.commits.isHolding)
    }

    @Test func aLoneDeviceIsNeverHeldAndArmsNoTimer() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        _ = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        // The phone itself ends the wait for it: a lone device is never
        // delayed, and no timer is armed for the hold its own edit ends.
        let again = Self.set(&host, "B", at: 8, by: R.phone, request: 2)
        #expect(again.actions == [.writeBatch([again.entry])])
    }

    @Test func throttlingPausesASenderAndResumesItOnceLittleWaits() throws {
        var host = try R.host()
        host.commits = CommitScheduler(throttleHigh: 3, throttleLow: 2)
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        #expect(first.actions == [.writeBatch([first.entry])])
        let second = Self.set(&host, "B", at: 8, by: R.tablet, request: "b")
        #expect(second.actions.isEmpty)
        let third = Self.set(&host, "C", at: 9, by: R.tablet, request: "c")
        #expect(third.actions == [.pauseReading(R.tablet, because: .throttled)])
        #expect(host.process(.request(R.tablet, R.message(.ping, id: "p"))).isEmpty)  // paused once
        // A is performed; B, C and the ping still wait (held for the phone): not resumed yet.
        let afterFirst = host.process(Self.finished([Self.receipt(first.state, generation: 1)]))
        #expect(Self.outcomes(afterFirst).map(\.live) == [first.state])
        #expect(afterFirst.last == .armCommitTimer(after: .milliseconds(2), generation: 1))
        #expect(host.process(.commitTimerFired(1)) == [.writeBatch([second.entry, third.entry])])
        let actions = host.process(Self.finished([Self.receipt(second.state, generation: 2),
                                                  Self.receipt(third.state, generation: 3)]))
        #expect(Self.outcomes(actions).map(\.live) == [second.state, third.state, nil])
        #expect(actions.last == .resumeReading(R.tablet, because: .throttled))
        #expect(actions.filter { if case .resumeReading = $0 { true } else { false } }.count == 1)
    }

    @Test func theStoresNoticesAndAMarkerFailureAreSaidBeforeTheOutcomes() throws {
        var host = try R.host()
        let first = Self.set(&host, "A", at: 7, by: R.phone)
        let actions = host.process(.batchFinished(receipts: [Self.receipt(first.state, generation: 1)], failure: nil,
                                                  markerFailure: "could not write last-profile: EROFS",
                                                  notices: ["retention could not delete default/1"]))
        #expect(Array(actions.prefix(2)) == [
            .note("retention could not delete default/1", level: .warning),
            .log(.warning, "could not record the last live profile: could not write last-profile: EROFS"),
        ])
        #expect(Self.outcomes(actions).map(\.live) == [first.state])
    }
}
