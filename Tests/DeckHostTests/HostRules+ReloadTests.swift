import DeckModel
import DeckPlugins
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckProfiles
@testable import DeckTransport

/// `reload`, SIGHUP and the folder watch: the scan is a disk job, its result
/// a typed input, and what goes live (or is refused) is decided by the rules
/// (PROFILE.md §5, docs/host.md "Reloading").
@Suite("HostState rules: reloading the layouts folder")
struct HostRulesReloadTests {
    typealias R = Rules

    /// A profile file as a scan reads it: valid with `names`, or broken with one problem.
    static func file(_ name: String, _ names: [String]? = nil, crc: UInt32 = 1) throws -> ProfileCatalog.File {
        let path = "/layouts/\(name).yaml"
        let fingerprint = FileFingerprint(file: "\(name).yaml", crc32: crc, bytes: 10 + Int(crc))
        guard let names else {
            return ProfileCatalog.File(path: path, fingerprint: fingerprint, profile: nil,
                                       problems: [FileProblem(file: path, line: 2, column: 3, message: "'pages' must be a list")],
                                       nameMark: nil, wasRead: true)
        }
        return ProfileCatalog.File(path: path, fingerprint: fingerprint,
                                   profile: DeckProfile(name: name, layout: try Fixture.layout(names)), problems: [],
                                   nameMark: nil, wasRead: true)
    }

    static func catalog(_ files: [ProfileCatalog.File]) -> ProfileCatalog {
        ProfileCatalog(folder: "/layouts", files: files)
    }

    /// The one scan job an input asked for.
    static func scan(_ actions: [HostAction]) throws -> DiskJob {
        let jobs = actions.compactMap { action -> DiskJob? in if case .disk(let job) = action { job } else { nil } }
        try #require(jobs.count == 1, "expected one scan, got \(actions)")
        return jobs[0]
    }

    /// The scan's outcome.
    static func finished(_ host: inout HostState, _ job: DiskJob, _ catalog: ProfileCatalog?,
                         plugins: PluginCatalog? = nil) -> [HostAction] {
        host.handle(.diskFinished(job.id, .scanned(LayoutScan(profiles: .success(catalog), plugins: plugins))))
    }

    /// The control client's reload, its scan finished with `catalog`.
    static func reload(_ host: inout HostState, _ catalog: ProfileCatalog) throws -> [HostAction] {
        let job = try scan(host.handle(.request(R.control, R.message(.reload))))
        return finished(&host, job, catalog)
    }

    @Test func reloadScansTheFolderAndThePluginsWithTheSenderPaused() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.request(R.control, R.message(.reload))))
        guard case let .scanLayouts(ticket, previous, plugins) = job.work else {
            Issue.record("expected a scan, got \(job.work)")
            return
        }
        #expect(job.sender == R.control && previous == host.catalog && plugins)
        #expect(!ticket.abandonable)
    }

    @Test func aSettledSaveScansTheFolderOnlyAndMayBeSuperseded() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.profilesChanged))
        guard case let .scanLayouts(ticket, _, plugins) = job.work else {
            Issue.record("expected a scan, got \(job.work)")
            return
        }
        #expect(job.sender == nil && !plugins && ticket.abandonable)
    }

    @Test func aChangedLiveFileGoesLiveAsTheNextRevision() throws {
        var host = try R.host()
        let file = try Self.file("default", ["A", "B"])
        let catalog = Self.catalog([file])
        let actions = try Self.reload(&host, catalog)
        let head = host.live.head
        #expect(head.revision == 6 && head.layout == file.profile?.layout)
        #expect(head.source == ProfileResolver.snapshotSource(of: file.fingerprint))
        #expect(host.catalog == catalog)
        #expect(actions == [
            .commit(Commit(Outcome(live: head, [
                .ok(R.control, 1, withRevision: true), .broadcastLayout,
                .rebased(profile: "default", file: "default.yaml", EditRebase([], onto: try Fixture.layout(["A", "B"])),
                         revision: 6, by: R.deckctl, log: "reloaded 'default' from default.yaml (revision 6) by deckctl"),
            ], ifWriteFails: [.refuse(R.control, 1, request: "reload")]), writeReason: "reload")),
        ])
    }

    @Test func theEditsSinceTheLastLoadAreReplayedOnTheNewFile() throws {
        var host = try R.host()
        _ = try Self.reload(&host, Self.catalog([try Self.file("default", ["A"])]))
        _ = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 3, button: R.files))))
        let actions = try Self.reload(&host, Self.catalog([try Self.file("default", ["A", "B"], crc: 2)]))
        let head = host.live.head
        #expect(head.revision == 8 && head.edits.count == 1)
        #expect(head.layout.pages[0].buttons[3]?.name == "Files" && head.layout.pages[0].buttons[1]?.name == "B")
        #expect(R.commit(actions)?.writeReason == "reload")
    }

    @Test func anUnchangedLiveFileKeepsTheLiveLayoutAndSaysSo() throws {
        var host = try R.host()
        let catalog = Self.catalog([try Self.file("default", ["A"])])
        _ = try Self.reload(&host, catalog)
        let before = host.live.head
        #expect(try Self.reload(&host, catalog) == [
            .commit(Commit(Outcome([
                .ok(R.control, 1, withRevision: true),
                .event(.reload(profile: "default", revision: 6, problems: [], by: R.deckctl)),
                .log(.info, "reloaded the profiles by deckctl; 'default' did not change, its live layout stays"),
            ]))),
        ])
        #expect(host.live.head == before)
    }

    @Test func aWatcherScanThatFindsNothingNewSaysNothing() throws {
        var host = try R.host()
        let catalog = Self.catalog([try Self.file("default", ["A"])])
        _ = try Self.reload(&host, catalog)
        let job = try Self.scan(host.handle(.profilesChanged))
        #expect(Self.finished(&host, job, catalog) == [.commit(Commit(Outcome([])))])
    }

    @Test func aBrokenLiveFileIsRefusedAndTheLiveLayoutStays() throws {
        var host = try R.host()
        let before = host.live.head
        let problem = Problem(file: "default.yaml", line: 2, column: 3, message: "'pages' must be a list")
        #expect(try Self.reload(&host, Self.catalog([try Self.file("default")])) == [
            .log(.warning, "/layouts/default.yaml:2:3: 'pages' must be a list (the live layout of 'default' stays)"),
            .commit(Commit(Outcome([
                .send(R.control, .error(id: 1, code: .invalid, message: "default.yaml has a problem; the live layout stays",
                                        problems: [problem])),
                .event(.reload(profile: "default", revision: nil, problems: [problem], by: R.deckctl)),
            ]))),
        ])
        #expect(host.live.head == before)
    }

    @Test func anotherFileIsReportedAtOnceBeforeTheLiveProfilesOutcome() throws {
        var host = try R.host()
        let catalog = Self.catalog([try Self.file("default", ["A"])])
        _ = try Self.reload(&host, catalog)
        let job = try Self.scan(host.handle(.profilesChanged))
        let problem = Problem(file: "stream.yaml", line: 2, column: 3, message: "'pages' must be a list")
        #expect(Self.finished(&host, job, Self.catalog([try Self.file("default", ["A"]), try Self.file("stream")])) == [
            .log(.warning, "/layouts/stream.yaml:2:3: 'pages' must be a list"),
            .perform(.event(.reload(profile: "stream", revision: nil, problems: [problem], by: nil))),
            .commit(Commit(Outcome([]))),
        ])
    }

    @Test func aValidOtherFileAndARemovedOneAreLogged() throws {
        var host = try R.host()
        _ = try Self.reload(&host, Self.catalog([try Self.file("default", ["A"]), try Self.file("old", ["O"])]))
        let job = try Self.scan(host.handle(.profilesChanged))
        #expect(Self.finished(&host, job, Self.catalog([try Self.file("default", ["A"]), try Self.file("stream", ["S"])])) == [
            .log(.info, "old.yaml was removed"),
            .log(.info, "read stream.yaml (profile 'stream')"),
            .perform(.event(.reload(profile: "stream", revision: nil, problems: [], by: nil))),
            .commit(Commit(Outcome([]))),
        ])
    }

    @Test func aRemovedLiveFileLeavesTheLiveLayoutAndWarns() throws {
        var host = try R.host()
        _ = try Self.reload(&host, Self.catalog([try Self.file("default", ["A"])]))
        let job = try Self.scan(host.handle(.profilesChanged))
        #expect(Self.finished(&host, job, Self.catalog([])) == [
            .log(.info, "default.yaml was removed"),
            .commit(Commit(Outcome([
                .log(.warning, "profile 'default' has no file in /layouts any more; its live layout stays"),
            ]))),
        ])
    }

    @Test func aSaveSeenSupersedesAWatcherScanInProgress() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.profilesChanged))
        #expect(host.handle(.profilesChanging) == [])
        let before = host.catalog
        #expect(Self.finished(&host, job, Self.catalog([try Self.file("default", ["A"])])) == [
            .log(.info, "a newer save of the layouts folder superseded scan 1; the newer one goes live instead"),
        ])
        #expect(host.catalog == before && host.live.head.revision == 5)
    }

    @Test func aScanThatGaveUpIsDropped() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.profilesChanged))
        #expect(Self.finished(&host, job, nil) == [
            .log(.info, "a newer save of the layouts folder superseded scan 1; the newer one goes live instead"),
        ])
    }

    @Test func anAnsweredReloadIsNeverSuperseded() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.request(R.control, R.message(.reload))))
        _ = host.handle(.profilesChanging)
        let actions = Self.finished(&host, job, Self.catalog([try Self.file("default", ["A"])]))
        #expect(host.live.head.revision == 6 && R.commit(actions)?.writeReason == "reload")
    }

    @Test func thePluginsReadAreAppliedBeforeTheProfiles() throws {
        var host = try R.host()
        _ = host.handle(.pluginsStarted(PluginCatalog(), folders: []))
        let job = try Self.scan(host.handle(.request(R.control, R.message(.reload))))
        let plugins = PluginCatalog()
        let actions = Self.finished(&host, job, Self.catalog([]), plugins: plugins)
        #expect(Array(actions.prefix(2)) == [.applyPlugins(plugins), .log(.info, "reloaded the plugins: none")] && actions.count == 3)
    }

    @Test func aFolderThatCannotBeReadIsInternalAndChangesNothing() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.request(R.control, R.message(.reload))))
        let error = DeckProfilesError.unreadableFolder(path: "/layouts", reason: "Permission denied")
        let before = host.catalog
        let actions = host.handle(.diskFinished(job.id, .scanned(LayoutScan(profiles: .failure(error), plugins: nil))))
        #expect(actions == [
            .log(.error, "could not reload the profiles: \(error)"),
            .commit(Commit(Outcome(Effect.refusal(ProtocolError(.internal, "could not reload the profiles: \(error)", id: 1),
                                                  request: "reload", to: R.control, by: R.deckctl, who: "deckctl")))),
        ])
        #expect(host.catalog == before)
    }

    @Test func aRequesterThatLeftGetsNoReplyButTheReloadApplies() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.request(R.control, R.message(.reload))))
        _ = host.handle(.closed(R.control, reason: .peerClosed, closeReason: nil, now: 0))
        let actions = Self.finished(&host, job, Self.catalog([try Self.file("default", ["A"])]))
        let effects = try #require(R.commit(actions)).outcome.effects
        #expect(host.live.head.revision == 6)
        #expect(!effects.contains(.ok(R.control, 1, withRevision: true)) && effects.contains(.broadcastLayout))
    }

    @Test func aSharedNameIsLoggedOnceWhenItAppears() throws {
        var host = try R.host()
        let a = try Self.file("default", ["A"])
        let copy = ProfileCatalog.File(path: "/layouts/zcopy.yaml", fingerprint: FileFingerprint(file: "zcopy.yaml", crc32: 3, bytes: 3),
                                       profile: a.profile, problems: [], nameMark: nil, wasRead: true)
        let catalog = Self.catalog([a, copy])
        let first = try Self.reload(&host, catalog)
        let shared = ProfileCatalog.folderProblems(of: catalog)
        #expect(!shared.isEmpty)
        #expect(Array(first.prefix(shared.count)) == shared.map { .log(.warning, $0.description) })
        #expect(try Self.reload(&host, catalog).allSatisfy { if case .log(.warning, _) = $0 { false } else { true } })
    }

    @Test func sighupReloadsTheProfilesAndThePlugins() throws {
        var host = try R.host()
        let actions = host.handle(.signal(.hangUp))
        #expect(actions.first == .log(.info, "SIGHUP: reloading the profiles and the plugins"))
        let job = try Self.scan(actions)
        guard case let .scanLayouts(ticket, _, plugins) = job.work else {
            Issue.record("expected a scan, got \(job.work)")
            return
        }
        #expect(job.sender == nil && plugins && !ticket.abandonable)
    }

    @Test func aSighupReloadThatChangedTheLiveFileHasNoReplyAndNoByline() throws {
        var host = try R.host()
        let job = try Self.scan(host.handle(.signal(.hangUp)))
        let effects = try #require(R.commit(Self.finished(&host, job, Self.catalog([try Self.file("default", ["A"])])))).outcome.effects
        #expect(effects.first == .broadcastLayout)
        #expect(effects.last == .rebased(profile: "default", file: "default.yaml", EditRebase([], onto: try Fixture.layout(["A"])),
                                         revision: 6, by: nil, log: "reloaded 'default' from default.yaml (revision 6)"))
    }
}
