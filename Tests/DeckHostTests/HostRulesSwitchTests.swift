import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckProfiles
@testable import DeckSnapshots
@testable import DeckTransport

/// `useProfile`, `profile` buttons and `export` of another profile: the
/// resolution is a disk job, its result a typed input (PROFILE.md §4–§5).
@Suite("HostState rules: switching profiles and exporting")
struct HostRulesSwitchTests {
    typealias R = Rules

    /// A layouts folder whose `broken.yaml` has one problem.
    static func withBrokenFile(_ host: inout HostState) {
        let problem = FileProblem(file: "/layouts/broken.yaml", line: 3, column: 5, message: "'pages' must be a list")
        host.catalog = ProfileCatalog(folder: "/layouts", files: [
            ProfileCatalog.File(path: "/layouts/broken.yaml", fingerprint: FileFingerprint(file: "broken.yaml", crc32: 1, bytes: 9),
                                profile: nil, problems: [problem], nameMark: nil, wasRead: true),
        ])
    }

    static func job(_ actions: [HostAction]) throws -> DiskJob {
        guard actions.count == 1, case .disk(let job) = actions[0] else {
            Issue.record("expected one disk job, got \(actions)")
            throw CancellationError()
        }
        return job
    }

    static func resolution(_ names: [String], notices: [String] = []) throws -> ProfileResolution {
        ProfileResolution(layout: try Fixture.layout(names), source: nil, notices: notices)
    }

    @Test func useProfileResolvesOnTheDiskWithTheSenderPaused() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.useProfile(name: "stream")))))
        #expect(job.work == .resolve("stream", host.catalog) && job.sender == R.control)
    }

    @Test func aResolvedProfileBecomesLiveAsTheNextRevision() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.useProfile(name: "stream")))))
        let actions = host.handle(.diskFinished(job.id, .resolution(.success(try Self.resolution(["S"], notices: ["a note"])))))
        let head = host.live.head
        #expect(head.profile == "stream" && head.revision == 6)
        #expect(actions == [
            .note("a note", level: .warning),
            .commit(Commit(Outcome(live: head, [
                .ok(R.control, 1, withRevision: true), .broadcastLayout,
                .event(.profile(profile: "stream", revision: 6, by: R.deckctl)),
                .log(.info, "switched to profile 'stream' (revision 6) by deckctl"),
            ], ifWriteFails: [.refuse(R.control, 1, request: "useProfile")]), writeReason: "useProfile")),
        ])
    }

    @Test func useProfileOfTheLiveProfileIsOkAtOnce() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.control, R.message(.useProfile(name: "default")))) == [
            .commit(Commit(Outcome([.ok(R.control, 1, withRevision: true)]))),
        ])
    }

    @Test func anUnknownProfileIsNotFoundNamingTheValidOnes() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.useProfile(name: "ghost")))))
        #expect(host.handle(.diskFinished(job.id, .resolution(.success(nil)))) == [
            R.refused(.notFound, "there is no profile named 'ghost' (the layouts folder holds no valid profile)",
                      request: "useProfile", by: R.control, who: R.deckctl, paused: false),
        ])
        #expect(host.live.head.profile == "default")
    }

    @Test func aResolutionThatFailedIsInternal() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.useProfile(name: "stream")))))
        let error = HostError.runtime("could not read the snapshots of 'stream'")
        #expect(host.handle(.diskFinished(job.id, .resolution(.failure(error)))) == [
            R.refused(.internal, error.description, request: "useProfile", by: R.control, who: R.deckctl, paused: false),
        ])
    }

    /// PROFILE.md §4: a profile with any error is not loaded, and its snapshot is not served instead.
    @Test func aBrokenProfileIsRefusedWithItsProblemsAndNoDiskWork() throws {
        var host = try R.host()
        Self.withBrokenFile(&host)
        let actions = host.handle(.request(R.control, R.message(.useProfile(name: "broken"))))
        let problem = Problem(file: "broken.yaml", line: 3, column: 5, message: "'pages' must be a list")
        let message = "broken.yaml has a problem; profile 'broken' is not loaded, and the live layout stays"
        #expect(actions == [
            .log(.warning, "/layouts/broken.yaml:3:5: 'pages' must be a list"),
            .commit(Commit(Outcome(Effect.refusal(ProtocolError(.invalid, message, id: 1), request: "useProfile", to: R.control,
                                                  by: R.deckctl, who: "deckctl", problems: [problem])), sender: R.control)),
        ])
    }

    /// PROFILE.md §4: every broken file is refused with all its problems,
    /// each logged, and nothing goes live or out (no layout, no revision).
    @Test(arguments: [("streaming", 3, "problems"), ("other", 1, "a problem")])
    func eachBrokenProfileIsRefusedWithAllItsProblemsAndTheLiveLayoutStays(_ name: String, _ count: Int, _ words: String) throws {
        var host = try R.host()
        func file(_ name: String, _ problems: Int) -> ProfileCatalog.File {
            ProfileCatalog.File(path: "/layouts/\(name).yaml", fingerprint: FileFingerprint(file: "\(name).yaml", crc32: 1, bytes: 9),
                                profile: nil,
                                problems: (1...problems).map { FileProblem(file: "/layouts/\(name).yaml", line: $0, column: 2, message: "bad \($0)") },
                                nameMark: nil, wasRead: true)
        }
        host.catalog = ProfileCatalog(folder: "/layouts", files: [file("streaming", 3), file("other", 1)])
        let before = host.live
        let actions = host.handle(.request(R.control, R.message(.useProfile(name: name))))
        #expect(host.live.head == before.head && host.live.committed == before.committed)
        #expect(actions.prefix(count) == ArraySlice((1...count).map { .log(.warning, "/layouts/\(name).yaml:\($0):2: bad \($0)") }))
        let commit = try #require(R.commit(Array(actions.dropFirst(count))))
        #expect(commit.outcome.live == nil && commit.writeReason == nil)
        guard case let .send(R.control, .error(.some(1), .invalid, message, problems)) = commit.outcome.effects.first else {
            Issue.record("expected invalid, got \(commit.outcome.effects)")
            return
        }
        #expect(message == "\(name).yaml has \(words); profile '\(name)' is not loaded, and the live layout stays")
        #expect(problems.map(\.description) == (1...count).map { "\(name).yaml:\($0):2: bad \($0)" })
        #expect(!commit.outcome.effects.contains(.broadcastLayout))
        #expect(R.logLines(actions).contains("refused useProfile from deckctl: invalid: \(message)"))
    }

    @Test func problemsAreNamedRelativeToTheLayoutsFolder() throws {
        let host = HostState(live: try R.host().live, commits: CommitScheduler(),
                             auth: DeviceAuth(tokens: TokenStore(), path: "/t"), catalog: ProfileCatalog(folder: "/l", files: []),
                             notices: Notices(start: []), maxLayoutBytes: 1 << 20, layoutsPath: "/layouts")
        #expect(host.problem(FileProblem(file: "/layouts/a.yaml", line: 1, column: 2, message: "m")).file == "a.yaml")
        #expect(host.problem(FileProblem(file: "/elsewhere/a.yaml", line: 1, column: 2, message: "m")).file == "/elsewhere/a.yaml")
    }

    // MARK: profile buttons

    @Test func aProfileButtonSwitchesAndEndsItsPressOnceDurable() throws {
        var host = try R.host()
        let press = ActionRequest(page: 0, index: 3, button: R.stream, phase: .tap, by: R.kim)
        let job = try Self.job(host.handle(.profileButton("stream", press: press)))
        #expect(job.sender == nil)
        let actions = host.handle(.diskFinished(job.id, .resolution(.success(try Self.resolution(["S"])))))
        let head = host.live.head
        #expect(actions == [.commit(Commit(Outcome(live: head, [
            .broadcastLayout, .event(.profile(profile: "stream", revision: 6, by: R.kim)),
            .log(.info, "switched to profile 'stream' (revision 6) by kim"), .actionEnded(press, .delivered),
        ], ifWriteFails: [.actionFailed(press)]), writeReason: "profile"))])
    }

    @Test func aProfileButtonForTheLiveProfileIsDeliveredAtOnce() throws {
        var host = try R.host()
        let press = ActionRequest(page: 0, index: 3, button: R.stream, phase: .tap, by: R.kim)
        #expect(host.handle(.profileButton("default", press: press)) == [.perform(.actionEnded(press, .delivered))])
    }

    @Test func aProfileButtonForABrokenProfileFailsItsPress() throws {
        var host = try R.host()
        Self.withBrokenFile(&host)
        let press = ActionRequest(page: 0, index: 3, button: R.stream, phase: .tap, by: R.kim)
        #expect(host.handle(.profileButton("broken", press: press)) == [
            .log(.warning, "/layouts/broken.yaml:3:5: 'pages' must be a list"),
            .perform(.actionEnded(press, .failed(reason: "broken.yaml has a problem; profile 'broken' is not loaded, and the live layout stays"))),
        ])
    }

    @Test func aProfileButtonForAnUnknownProfileFailsItsPress() throws {
        var host = try R.host()
        let press = ActionRequest(page: 0, index: 3, button: R.stream, phase: .tap, by: R.kim)
        let job = try Self.job(host.handle(.profileButton("ghost", press: press)))
        #expect(host.handle(.diskFinished(job.id, .resolution(.success(nil)))) == [
            .perform(.actionEnded(press, .failed(reason: "there is no profile named 'ghost' (the layouts folder holds no valid profile)"))),
        ])
    }

    // MARK: export

    @Test func exportOfAnotherProfileIsItsResolvedLayoutAsYAML() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.export(profile: "stream")))))
        let resolution = try Self.resolution(["S"])
        #expect(host.handle(.diskFinished(job.id, .resolution(.success(resolution)))) == [
            .commit(Commit(Outcome([.send(R.control, .export(id: 1, profile: "stream",
                                                            yaml: DeckProfile(name: "stream", layout: resolution.layout).yaml))]))),
        ])
        #expect(host.live.head.profile == "default")  // an export changes nothing
    }

    @Test func exportOfABrokenProfileWithNoSnapshotSaysWhatIsWrong() throws {
        var host = try R.host()
        Self.withBrokenFile(&host)
        let job = try Self.job(host.handle(.request(R.control, R.message(.export(profile: "broken")))))
        let effects = try #require(R.commit(host.handle(.diskFinished(job.id, .resolution(.success(nil)))))).outcome.effects
        guard case .send(R.control, .error(.some(1), .invalid, let message, let problems)) = effects.first else {
            Issue.record("expected invalid, got \(effects)")
            return
        }
        #expect(message == "broken.yaml has a problem; profile 'broken' has no snapshot to export" && problems.count == 1)
    }

    @Test func exportOfAnUnknownProfileIsNotFound() throws {
        var host = try R.host()
        let job = try Self.job(host.handle(.request(R.control, R.message(.export(profile: "ghost")))))
        #expect(host.handle(.diskFinished(job.id, .resolution(.success(nil)))) == [
            R.refused(.notFound, "there is no profile named 'ghost' and no snapshot of one", request: "export", by: R.control,
                      who: R.deckctl, paused: false),
        ])
    }
}
