#if canImport(FoundationEssentials)
import FoundationEssentials  // Date, as snapshot headers carry it
#else
import Foundation
#endif
import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckSnapshots
@testable import DeckTransport

/// `restore` and `snapshots`: the disk work is an action, its result a typed input.
@Suite("HostState rules: restore and snapshots")
struct HostRulesRestoreTests {
    typealias R = Rules

    static func snapshot(generation: Int, names: [String]) throws -> Snapshot {
        Snapshot(info: SnapshotInfo(profile: "default", generation: generation, revision: 3, time: Date(timeIntervalSince1970: 0),
                                    reason: "setButton", source: nil, bytes: 100),
                 layout: try Fixture.layout(names))
    }

    /// Asks for a restore and returns the job it produced.
    static func ask(_ host: inout HostState, generation: Int = 2, id: RequestID? = 1) throws -> DiskJob {
        let actions = host.handle(.request(R.control, R.message(.restore(generation: generation), id: id)))
        guard actions.count == 1, case .disk(let job) = actions[0] else {
            Issue.record("expected one disk job, got \(actions)")
            throw CancellationError()
        }
        return job
    }

    @Test func restoreReadsTheLiveProfilesGenerationWithTheSenderPaused() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        #expect(job.work == .readSnapshot(profile: "default", generation: 2) && job.sender == R.control)
        #expect(host.live.head.revision == 5)  // nothing changes before the read
    }

    @Test func jobsAreNumberedOneAfterAnother() throws {
        var host = try R.host()
        let first = try Self.ask(&host)
        let second = try Self.ask(&host, id: 2)
        #expect(first.id < second.id)
    }

    @Test func aReadSnapshotBecomesANewRevisionWrittenAsARestore() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        let actions = host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"])))))
        let head = host.live.head
        #expect(head.revision == 6 && head.layout.button(page: 0, index: 0)?.name == "Old" && head.profile == "default")
        #expect(actions == [.commit(Commit(Outcome(live: head, [
            .ok(R.control, 1, withRevision: true), .broadcastLayout,
            .event(.restore(profile: "default", generation: 2, revision: 6, by: R.deckctl)),
            .log(.info, "restored generation 2 of 'default' (revision 6) by deckctl"),
        ], ifWriteFails: [.refuse(R.control, 1, request: "restore")]), writeReason: "restore", sender: R.control))])
    }

    /// A `restore` is no device's edit: its write names no editor, so the
    /// next batch does not wait for the control client that sent it (it
    /// used to, holding a device's edit for the whole gather window).
    @Test func aRestoreIsNotCreditedToItsSenderAsAnEditor() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        let actions = host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"])))))
        let commit = try #require(R.commit(actions))
        #expect(commit.editor == nil && commit.sender == R.control && commit.writeReason == "restore")
        #expect(!actions.contains(.heard(R.control)))
    }

    /// For the next rebase the restored layout counts as edits onto the file's layout (PROFILE.md §5).
    @Test func aRestoredLayoutIsRecordedAsEditsOfTheFile() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        _ = host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"])))))
        #expect(!host.live.head.edits.isEmpty)
    }

    @Test func aMissingGenerationIsNotFound() throws {
        var host = try R.host()
        let job = try Self.ask(&host, generation: 9)
        let error = SnapshotError.notFound(profile: "default", generation: 9)
        #expect(host.handle(.diskFinished(job.id, .snapshot(.failure(error)))) == [
            R.refused(.notFound, error.description, request: "restore", by: R.control, who: R.deckctl, paused: false),
        ])
        #expect(host.live.head.revision == 5)
    }

    @Test func aCorruptGenerationIsNotFoundAndANotice() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        let notice = SnapshotNotice(kind: .corrupt, profile: "default", generation: 2, message: "generation 2 of 'default' is damaged")
        let error = SnapshotError.corrupt(notice)
        #expect(host.handle(.diskFinished(job.id, .snapshot(.failure(error)))) == [
            .note("generation 2 of 'default' is damaged", level: .warning),
            R.refused(.notFound, error.description, request: "restore", by: R.control, who: R.deckctl, paused: false),
        ])
    }

    @Test func aDiskFailureIsInternal() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        let error = SnapshotError.system(operation: "open", path: "/s/x", code: 5)
        #expect(host.handle(.diskFinished(job.id, .snapshot(.failure(error)))) == [
            R.refused(.internal, error.description, request: "restore", by: R.control, who: R.deckctl, paused: false),
        ])
    }

    /// The profile switched while the disk read: the generation belongs to the old one.
    @Test func aRestoreWhoseProfileChangedMeanwhileIsRefused() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        _ = host.live.advance(layout: try Fixture.layout(["S"]), profile: "stream", source: .some(nil), edits: [])
        #expect(host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"]))))) == [
            R.refused(.invalid, "the live profile changed while restoring; send restore again", request: "restore", by: R.control,
                      who: R.deckctl, paused: false),
        ])
    }

    @Test func aResultForASenderThatLeftDoesNothing() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        host.sessions[R.control] = nil
        #expect(host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"]))))).isEmpty)
        #expect(host.live.head.revision == 5)
    }

    @Test func aResultIsTakenOnce() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        _ = host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"])))))
        #expect(host.handle(.diskFinished(job.id, .snapshot(.success(try Self.snapshot(generation: 2, names: ["Old"]))))).isEmpty)
        #expect(host.live.head.revision == 6)
    }

    @Test func aResultOfTheWrongKindChangesNothingAndSaysSo() throws {
        var host = try R.host()
        let job = try Self.ask(&host)
        let actions = host.handle(.diskFinished(job.id, .listing(.success(SnapshotListing(snapshots: [], notices: [])))))
        guard case .log(.error, _) = actions.first, actions.count == 1 else {
            Issue.record("expected one error line, got \(actions)")
            return
        }
        #expect(host.live.head.revision == 5)
    }

    // MARK: snapshots

    @Test func snapshotsOfTheLiveProfileListsItsHistory() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.control, R.message(.snapshots(profile: nil))))
        guard actions.count == 1, case .disk(let job) = actions[0] else {
            Issue.record("expected a disk job, got \(actions)")
            return
        }
        #expect(job.work == .listSnapshots(profile: "default"))
        let info = try Self.snapshot(generation: 4, names: ["A"]).info
        let notice = SnapshotNotice(kind: .corrupt, profile: "default", generation: 3, message: "generation 3 was set aside")
        #expect(host.handle(.diskFinished(job.id, .listing(.success(SnapshotListing(snapshots: [info], notices: [notice]))))) == [
            .note("generation 3 was set aside", level: .warning),
            .commit(Commit(Outcome([.send(R.control, .snapshots(id: 1, profile: "default", snapshots: [
                DeckProtocol.SnapshotInfo(generation: 4, revision: 3, time: UTCTime.format(0), reason: "setButton", bytes: 100),
            ]))]))),
        ])
    }

    @Test func snapshotsOfAnUnknownProfileWithNoHistoryIsNotFound() throws {
        var host = try R.host()
        guard case .disk(let job) = host.handle(.request(R.control, R.message(.snapshots(profile: "ghost")))).first else {
            Issue.record("expected a disk job")
            return
        }
        #expect(host.handle(.diskFinished(job.id, .listing(.success(SnapshotListing(snapshots: [], notices: []))))) == [
            R.refused(.notFound, "there is no profile named 'ghost' and no snapshot of one", request: "snapshots", by: R.control,
                      who: R.deckctl, paused: false),
        ])
    }

    /// A profile whose file is gone still has its history.
    @Test func snapshotsOfAnUnknownProfileWithHistoryListsIt() throws {
        var host = try R.host()
        guard case .disk(let job) = host.handle(.request(R.control, R.message(.snapshots(profile: "gone")))).first else {
            Issue.record("expected a disk job")
            return
        }
        let info = try Self.snapshot(generation: 1, names: ["A"]).info
        let actions = host.handle(.diskFinished(job.id, .listing(.success(SnapshotListing(snapshots: [info], notices: [])))))
        guard case .send(R.control, .snapshots(_, "gone", let listed)) = R.commit(actions)?.outcome.effects.first else {
            Issue.record("expected the listing, got \(actions)")
            return
        }
        #expect(listed.count == 1)
    }

    @Test func snapshotsOfABadProfileNameIsNotFound() throws {
        var host = try R.host()
        guard case .disk(let job) = host.handle(.request(R.control, R.message(.snapshots(profile: "../x")))).first else {
            Issue.record("expected a disk job")
            return
        }
        let error = SnapshotError.invalidProfileName(name: "../x", reason: "it contains '/'")
        #expect(host.handle(.diskFinished(job.id, .listing(.failure(error)))) == [
            R.refused(.notFound, error.description, request: "snapshots", by: R.control, who: R.deckctl, paused: false),
        ])
    }
}
