import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckProfiles
@testable import DeckTransport

/// Saves of the layouts folder as the rules see them: the folder scanned
/// (here read from YAML text, the real parser's problems included) comes
/// back as a typed input, and what goes live, what is refused and what is
/// logged is compared exactly (PROFILE.md §5). The deckd tests beside them
/// (ProfileTests, EditorSaveTests, SupersededReloadTests, LayoutBoundTests)
/// keep what only a process shows: inotify, the editors' ways of saving,
/// the disk thread's parse that a newer save interrupts.
@Suite("HostState rules: saves of profile files")
struct HostRulesSavesTests {
    typealias R = Rules
    typealias Reload = HostRulesReloadTests

    /// `deskYAML` with slot 0/2 named `name`.
    static func desk(_ name: String) -> String { EditorSaveTests.desk(name) }

    static let broken = "pages:\n  - buttons:\n      0: {nmae: Oops, action: {run: x}}\n"

    @Test func aSavedFileGoesLiveWithTheMoveRebasedOntoIt() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let terminal = try #require(host.live.head.layout.button(page: 0, index: 1))
        _ = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 8, button: terminal))))
        R.durable(&host, generation: 2, reason: "moveButton")
        let edits = host.live.head.edits
        let file = R.read("default.yaml", Self.desk("Compile"))
        let fileLayout = try #require(file.profile?.layout)
        let actions = try R.saved(&host, ProfileCatalog(folder: "/layouts", files: [file]))
        let head = host.live.head
        #expect(actions == [
            .commit(Commit(Outcome(live: head, [
                .broadcastLayout,
                .rebased(profile: "default", file: "default.yaml", EditRebase(edits, onto: fileLayout), revision: 7, by: nil,
                         log: "reloaded 'default' from default.yaml (revision 7)"),
            ]), writeReason: "reload")),
        ])
        // The move touched slots the save did not: it is kept on the new file.
        #expect(head.layout.button(page: 0, index: 2)?.name == "Compile")
        #expect(head.layout.button(page: 0, index: 8) == terminal && head.layout.button(page: 0, index: 1) == nil)
        #expect(head.edits == edits)
    }

    @Test func aBrokenSaveWarnsTellsSubscribersAndTheLiveLayoutStays() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let before = host.live.head
        let file = R.read("default.yaml", Self.broken)
        #expect(file.problems.contains { $0.line == 3 && $0.message.contains("unknown key 'nmae'") }, "\(file.problems)")
        let problems = file.problems.map { Problem(file: "default.yaml", line: $0.line, column: $0.column, message: $0.message) }
        #expect(try R.saved(&host, ProfileCatalog(folder: "/layouts", files: [file])) == file.problems.map {
            HostAction.log(.warning, "\($0) (the live layout of 'default' stays)")
        } + [
            .commit(Commit(Outcome([.event(.reload(profile: "default", revision: nil, problems: problems, by: nil))]))),
        ])
        #expect(host.live.head == before && host.live.committed == before)
        // What `status` lists: the scan's problems, at the file's line.
        #expect(host.catalog.problems == file.problems)
    }

    @Test func aReloadAfterABrokenSaveIsInvalidWithTheFilesProblems() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let catalog = R.folder(["default.yaml": Self.broken])
        _ = try R.saved(&host, catalog)
        let file = try #require(catalog.files.first)
        let problems = file.problems.map { Problem(file: "default.yaml", line: $0.line, column: $0.column, message: $0.message) }
        let sentence = problems.count == 1 ? "a problem" : "problems"
        #expect(try Reload.reload(&host, catalog) == file.problems.map {
            HostAction.log(.warning, "\($0) (the live layout of 'default' stays)")
        } + [
            .commit(Commit(Outcome([
                .send(R.control, .error(id: 1, code: .invalid, message: "default.yaml has \(sentence); the live layout stays",
                                        problems: problems)),
                .event(.reload(profile: "default", revision: nil, problems: problems, by: R.deckctl)),
            ]))),
        ])
        #expect(host.live.head.revision == 5)
    }

    @Test func aFixedSaveAfterABrokenOneGoesLive() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        _ = try R.saved(&host, R.folder(["default.yaml": Self.broken]))
        let actions = try R.saved(&host, R.folder(["default.yaml": Self.desk("Fixed")]))
        #expect(R.commit(actions)?.writeReason == "reload")
        #expect(host.live.head.revision == 6 && host.live.head.layout.button(page: 0, index: 2)?.name == "Fixed")
        #expect(host.catalog.problems.isEmpty)
    }

    @Test func anUnchangedReloadKeepsTheDeviceEditAndAnswersItsRevision() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let terminal = try #require(host.live.head.layout.button(page: 0, index: 1))
        _ = host.handle(.request(R.phone, R.message(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 8, button: terminal))))
        R.durable(&host, generation: 2, reason: "moveButton")
        let edited = host.live.head
        #expect(try Reload.reload(&host, host.catalog) == [
            .commit(Commit(Outcome([
                // The committed revision (the move's, 6) when it is performed.
                .ok(R.control, 1, withRevision: true),
                .event(.reload(profile: "default", revision: 6, problems: [], by: R.deckctl)),
                .log(.info, "reloaded the profiles by deckctl; 'default' did not change, its live layout stays"),
            ]))),
        ])
        #expect(host.live.head == edited && host.live.committed.layout.button(page: 0, index: 8) == terminal)
    }

    /// A file changed behind the watcher's back, to the same size: its CRC
    /// differs, so SIGHUP's scan takes it.
    @Test func aSameSizeChangeIsTakenBySighup() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let same = Self.desk("Bu1ld")
        #expect(same.utf8.count == deskYAML.utf8.count)
        let job = try Reload.scan(host.handle(.signal(.hangUp)))
        let file = R.read("default.yaml", same)
        let actions = Reload.finished(&host, job, ProfileCatalog(folder: "/layouts", files: [file]))
        #expect(actions == [
            .commit(Commit(Outcome(live: host.live.head, [
                .broadcastLayout,
                .rebased(profile: "default", file: "default.yaml", EditRebase([], onto: try #require(file.profile?.layout)),
                         revision: 6, by: nil, log: "reloaded 'default' from default.yaml (revision 6)"),
            ]), writeReason: "reload")),
        ])
    }

    /// Issue 17 §4: the name two files give is said when the second file
    /// appears, on the file that keeps it (the first by name owns it).
    @Test func aNameASecondFileGivesIsLoggedOnTheFileThatLosesIt() throws {
        var host = try R.serving(["default.yaml": deskYAML, "streaming.yaml": streamYAML])
        #expect(try R.saved(&host, R.folder(["default.yaml": deskYAML, "streaming.yaml": streamYAML, "a-copy.yaml": streamYAML])) == [
            .log(.warning, "/layouts/streaming.yaml:1:7: profile name 'streaming' is already used by a-copy.yaml; give one of them another name"),
            .log(.info, "read a-copy.yaml (profile 'streaming')"),
            .perform(.event(.reload(profile: "streaming", revision: nil, problems: [], by: nil))),
            .commit(Commit(Outcome([]))),
        ])
        #expect(host.catalog.profile(named: "streaming")?.fingerprint.file == "a-copy.yaml")
    }

    /// LayoutBoundTests' rule: a layout larger than edits may make it is a
    /// problem of its file at 1:1, so the live layout stays and `reload` is
    /// `invalid` (a device is never sent more than it can queue).
    @Test func aSaveTooBigToSendIsAProblemAndTheLiveLayoutStays() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let before = host.live.head
        var layout = DeckLayout.empty()
        try layout.set(page: 0, index: 0, button: DeckButton(name: String(repeating: "n", count: 3 << 20), action: .page(.next)))
        let profile = DeckProfile(name: "default", layout: layout)
        let problem = try #require(FileProblem.tooBigToSend(profile, file: "/layouts/default.yaml",
                                                             maxLayoutBytes: DeckConstants.maximumLayoutBytes))
        #expect(problem.line == 1 && problem.column == 1 && problem.message.hasPrefix("the layout would be 31"))
        #expect(problem.message.contains("more than the 2 MiB the host sends to every device"))
        let file = ProfileCatalog.File(path: "/layouts/default.yaml", fingerprint: FileFingerprint(file: "default.yaml", crc32: 9, bytes: 9),
                                       profile: nil, problems: [problem], nameMark: nil, wasRead: true)
        let catalog = ProfileCatalog(folder: "/layouts", files: [file])
        let reported = Problem(file: "default.yaml", line: 1, column: 1, message: problem.message)
        #expect(try R.saved(&host, catalog) == [
            .log(.warning, "\(problem) (the live layout of 'default' stays)"),
            .commit(Commit(Outcome([.event(.reload(profile: "default", revision: nil, problems: [reported], by: nil))]))),
        ])
        let reply = try #require(R.onlyCommit(try Reload.reload(&host, catalog))).outcome.effects.first
        #expect(reply == .send(R.control, .error(id: 1, code: .invalid, message: "default.yaml has a problem; the live layout stays",
                                                   problems: [reported])))
        #expect(host.live.head == before)
    }

    /// EditorSaveTests' quick saves: every save seen while a watcher's scan
    /// reads supersedes it; only the last save's scan goes live, once, as
    /// the next revision.
    @Test(arguments: [2, 3, 8])
    func ofSavesInQuickSuccessionOnlyTheLastGoesLive(_ saves: Int) throws {
        var host = try R.serving(["default.yaml": deskYAML])
        var jobs: [DiskJob] = []
        for round in 1...saves {
            if round > 1 { #expect(host.handle(.profilesChanging) == []) }
            jobs.append(try Reload.scan(host.handle(.profilesChanged)))
        }
        for (round, job) in jobs.enumerated().dropLast() {
            #expect(Reload.finished(&host, job, R.folder(["default.yaml": Self.desk("Quick\(round + 1)")])) == [
                .log(.info, "a newer save of the layouts folder superseded scan \(2 * round + 1); the newer one goes live instead"),
            ])
        }
        let last = try #require(jobs.last)
        #expect(R.commit(Reload.finished(&host, last, R.folder(["default.yaml": Self.desk("Quick\(saves)")])))?.writeReason == "reload")
        #expect(host.live.head.revision == 6 && host.live.head.layout.button(page: 0, index: 2)?.name == "Quick\(saves)")
    }

    /// A scan overtaken by a newer one that finished first never goes live
    /// after it: revisions only go forward, no earlier save follows a later.
    @Test func anOlderScanFinishingAfterANewerOneIsDropped() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let first = try Reload.scan(host.handle(.profilesChanged))
        _ = host.handle(.profilesChanging)
        let second = try Reload.scan(host.handle(.profilesChanged))
        _ = Reload.finished(&host, second, R.folder(["default.yaml": Self.desk("Second")]))
        let live = host.live.head
        #expect(Reload.finished(&host, first, R.folder(["default.yaml": Self.desk("First")])) == [
            .log(.info, "a newer save of the layouts folder superseded scan 1; the newer one goes live instead"),
        ])
        #expect(host.live.head == live && live.layout.button(page: 0, index: 2)?.name == "Second")
    }

    /// `deckctl reload` reads the folder after every save: a watcher's scan
    /// still reading when it is asked gives way to it.
    @Test func aReloadSupersedesAWatchersScanInProgress() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let watcher = try Reload.scan(host.handle(.profilesChanged))
        let answered = try Reload.scan(host.handle(.request(R.control, R.message(.reload))))
        let catalog = R.folder(["default.yaml": Self.desk("Saved")])
        #expect(Reload.finished(&host, watcher, catalog) == [
            .log(.info, "a newer save of the layouts folder superseded scan 1; the newer one goes live instead"),
        ])
        let effects = try #require(R.commit(Reload.finished(&host, answered, catalog))).outcome.effects
        #expect(effects.first == .ok(R.control, 1, withRevision: true) && host.live.head.revision == 6)
    }

    /// A save that only touches another profile's file leaves the live
    /// layout and its revision alone, and says nothing of the live profile.
    @Test func aSaveOfAnotherProfileLeavesTheLiveOne() throws {
        var host = try R.serving(["default.yaml": deskYAML, "streaming.yaml": streamYAML])
        let before = host.live.head
        let changed = streamYAML.replacingOccurrences(of: "name: Scene", with: "name: Scenes")
        #expect(try R.saved(&host, R.folder(["default.yaml": deskYAML, "streaming.yaml": changed])) == [
            .log(.info, "read streaming.yaml (profile 'streaming')"),
            .perform(.event(.reload(profile: "streaming", revision: nil, problems: [], by: nil))),
            .commit(Commit(Outcome([]))),
        ])
        #expect(host.live.head == before)
    }

    /// ProfileTests' replaced folder, as the rules see it: the live file
    /// goes, then comes back as it was loaded: nothing new goes live.
    @Test func aLiveFileThatComesBackAsItWasKeepsTheLiveLayout() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let before = host.live.head
        #expect(try R.saved(&host, R.folder([:])) == [
            .log(.info, "default.yaml was removed"),
            .commit(Commit(Outcome([.log(.warning, "profile 'default' has no file in /layouts any more; its live layout stays")]))),
        ])
        #expect(try R.saved(&host, R.folder(["default.yaml": deskYAML])) == [
            .commit(Commit(Outcome([.event(.reload(profile: "default", revision: 5, problems: [], by: nil))]))),
        ])
        #expect(host.live.head == before)
    }

    @Test func aWatchersScanOfAFolderThatCannotBeReadIsLoggedOnly() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let job = try Reload.scan(host.handle(.profilesChanged))
        let error = DeckProfilesError.unreadableFolder(path: "/layouts", reason: "No such file or directory")
        let before = host.catalog
        #expect(host.handle(.diskFinished(job.id, .scanned(LayoutScan(profiles: .failure(error), plugins: nil)))) == [
            .log(.error, "could not reload the profiles: \(error)"),
        ])
        #expect(host.catalog == before)
    }

    @Test func aBrokenFileForAReloaderThatLeftIsReportedToNoOne() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let job = try Reload.scan(host.handle(.request(R.control, R.message(.reload))))
        _ = host.handle(.closed(R.control, reason: .peerClosed, closeReason: nil, now: 0))
        let file = R.read("default.yaml", Self.broken)
        let problems = file.problems.map { Problem(file: "default.yaml", line: $0.line, column: $0.column, message: $0.message) }
        let commit = try #require(R.onlyCommit(Reload.finished(&host, job, ProfileCatalog(folder: "/layouts", files: [file]))))
        #expect(commit == Commit(Outcome([.event(.reload(profile: "default", revision: nil, problems: problems, by: nil))])))
    }
}
