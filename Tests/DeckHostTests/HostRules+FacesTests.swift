import DeckModel
import DeckPlugins
import DeckPluginKit
import DeckProtocol
import DeckSnapshots
import Testing
@testable import DeckHost
@testable import DeckTransport

/// Faces (docs/faces.md) driven through the rules: `setFace`, what plugins
/// and follows say, the frame, and a committed state the plugins, faces and
/// follows follow. The face table is held by ``HostState``; the shell only
/// performs its actions.
@Suite("HostState rules: faces, plugin messages and the committed layout")
struct HostRulesFacesTests {
    typealias R = Rules

    static func setFace(_ page: Int, _ index: Int, state: String? = nil, title: String? = nil, clear: Bool = false) -> HostInput {
        .request(R.control, R.message(.setFace(page: page, index: index, state: state, title: title, clear: clear)))
    }

    /// A title change while no frame runs: the face and the title go out at the end of its turn, and a frame starts.
    static func shownAtOnce(_ page: Int, _ index: Int, _ title: String) -> [HostAction] {
        [.face(.sendFace(ButtonFace(page: page, index: index, title: title))),
         .face(.sendTitle(DeckSlot(page: page, index: index), title)), .armTimer(.faceFrame, after: .milliseconds(16))]
    }

    /// The `ok` first: the face goes out at the end of the turn, with whatever else the turn changed.
    @Test func setFaceAnswersOkAndTheFaceGoesOutInTheSameTurn() throws {
        var host = try R.host()
        #expect(host.handleTurn(Self.setFace(0, 0, title: "Home")) == [
            .commit(Commit(Outcome([.ok(R.control, 1, withRevision: false), .log(.info, "face of 0/0 set by deckctl")]),
                           sender: R.control)),
        ] + Self.shownAtOnce(0, 0, "Home"))
        #expect(host.faces.current.map(\.title) == ["Home"])
    }

    @Test func aSecondChangeWithinTheFrameWaitsForIt() throws {
        var host = try R.host()
        _ = host.handleTurn(Self.setFace(0, 0, title: "Home"))
        let second = host.handleTurn(Self.setFace(0, 1, title: "Shell"))
        #expect(second.allSatisfy { if case .face = $0 { false } else { true } })
        #expect(Array(host.handleTurn(.timerFired(.faceFrame)).prefix(2)) == Array(Self.shownAtOnce(0, 1, "Shell").prefix(2)))
    }

    @Test(arguments: [
        (0, 7, ErrorCode.empty, "slot 0/7 is empty; a face needs a button"),
        (0, 0, .notFound, "button 'Files' at 0/0 has no state 'on' (it declares no states); its face is unchanged"),
    ])
    func aRefusedSetFaceIsTheErrorAndChangesNothing(_ page: Int, _ index: Int, _ code: ErrorCode, _ message: String) throws {
        var host = try R.host()
        #expect(host.handleTurn(Self.setFace(page, index, state: "on")) == [
            R.refused(code, message, request: "setFace", by: R.control, who: R.deckctl),
        ])
        #expect(host.faces.current.isEmpty)
    }

    @Test func aPluginTitleIsAFaceChangeAndALogLineIsALogLine() throws {
        var host = try R.host()
        #expect(host.handleTurn(.plugin(.title(DeckSlot(page: 0, index: 4), "On air"))) == Self.shownAtOnce(0, 4, "On air"))
        #expect(host.faces.current.first?.title == "On air")
        #expect(host.handleTurn(.plugin(.log(.warning, "plugin 'talk': gone"))) == [.log(.warning, "plugin 'talk': gone")])
    }

    @Test func aPluginsRefusedFaceIsLoggedNotAnswered() throws {
        var host = try R.host()
        let button = PluginButton(page: 0, index: 4, name: "Talk", command: "hold")
        #expect(host.handleTurn(.plugin(.face(plugin: "talk", [button], .setState(target: .slot(page: 0, index: 4), state: "live")))) == [
            .log(.warning, "plugin 'talk': button 'Talk' at 0/4 has no state 'live' (it declares no states); its face is unchanged"),
        ])
    }

    @Test func aPluginsFlashReachesEveryButtonItsTargetMatched() throws {
        var host = try R.host()
        let buttons = [PluginButton(page: 0, index: 4, name: "Talk", command: "hold"), PluginButton(page: 0, index: 0, name: "Files", command: "hold")]
        let now = host.handleTurn(.plugin(.face(plugin: "talk", buttons, .showOk(target: .matching(command: "hold")))))
        let tick = host.handleTurn(.timerFired(.faceFrame))
        let sent = (now + tick).compactMap { if case .face(.sendFace(let face)) = $0 { face } else { nil } }
        #expect(sent.map { "\($0.page)/\($0.index)" }.sorted() == ["0/0", "0/4"])
    }

    @Test func aPluginStatusIsAnEventAtOnce() throws {
        var host = try R.host()
        let status = PluginStatus(id: "talk", state: "running")
        #expect(host.handleTurn(.plugin(.status(status))) == [.perform(.event(.plugin(status)))])
    }

    /// A host whose live layout has a follow on 0/1 (`watch-t`), the runner started.
    static func following() throws -> (HostState, FollowSpec, [HostAction]) {
        var host = try R.host()
        var layout = host.live.committed.layout
        try layout.set(page: 0, index: 1, button: DeckButton(name: "Term", action: .run(command: "xterm", follow: "watch-t")))
        try host.live.commit(host.live.advance(layout: layout, edits: []))
        let started = host.handleTurn(.follow(.started))
        return (host, FollowSpec(page: 0, index: 1, name: "Term", command: "watch-t", cwd: nil), started)
    }

    @Test func theFollowsStartWithTheRunner() throws {
        let (host, spec, started) = try Self.following()
        #expect(started == [.follow(.spawn(1, spec))])
        #expect(host.follows.wanted == 1)
    }

    @Test func aFollowLineDrivesItsButtonsFace() throws {
        var (host, _, _) = try Self.following()
        #expect(host.handleTurn(.follow(.line(1, "title 42"))) == Self.shownAtOnce(0, 1, "42"))
        #expect(host.faces.current.first?.title == "42")
    }

    @Test func aFollowsExitIsLoggedAndItsRestartWaitsForTheTimer() throws {
        var (host, spec, _) = try Self.following()
        let exited = host.handleTurn(.follow(.exited(1, how: "exited with status 1")))
        #expect(exited.contains(.follow(.wake(1, after: .seconds(1)))))
        #expect(exited.contains { if case .log = $0 { true } else { false } })
        #expect(!exited.contains(.follow(.spawn(1, spec))))
    }

    @Test func theStopTerminatesEveryFollow() throws {
        var (host, _, _) = try Self.following()
        let actions = host.handleTurn(.signal(.terminate))
        #expect(actions.contains(.follow(.terminate(1))))
        let runner = try #require(actions.firstIndex(of: .stop(.stopActions)))
        let plugins = try #require(actions.firstIndex { if case .stop(.stopPlugins) = $0 { true } else { false } })
        #expect(actions.firstIndex(of: .follow(.terminate(1))).map { runner < $0 && $0 < plugins } == true)
    }

    @Test func anEditElsewhereKeepsAFollowRunningAndAReloadRestartsIt() throws {
        var (host, _, _) = try Self.following()
        var edited = host.live.committed.layout
        try edited.set(page: 0, index: 6, button: R.later)
        let next = host.live.advance(layout: edited, edits: [])
        #expect(!R.committed(&host, next).contains { if case .follow = $0 { true } else { false } })
        let reloaded = host.live.advance(layout: edited, source: SnapshotSource(file: "default.yaml", crc32: 1, bytes: 1), edits: [])
        #expect(R.committed(&host, reloaded).contains(.follow(.terminate(1))))
    }

    @Test func theFollowOfATurnsCommitsComesOnceAfterTheirRepliesAndKeepsARestart() throws {
        var (host, _, _) = try Self.following()
        var edited = host.live.committed.layout
        try edited.set(page: 0, index: 6, button: R.later)
        let reloaded = host.live.advance(layout: edited, source: SnapshotSource(file: "default.yaml", crc32: 1, bytes: 1), edits: [])
        let first = host.handleTurn(.committed(reloaded, written: nil))
        #expect(first.filter { $0 == .followCommittedAfterReplies }.count == 1)
        #expect(!first.contains { if case .follow = $0 { true } else { false } }, "nothing follows before the replies")
        try edited.set(page: 0, index: 7, button: R.later)
        let second = host.handleTurn(.committed(host.live.advance(layout: edited, edits: []), written: nil))
        #expect(!second.contains(.followCommittedAfterReplies), "one follow is owed for the turn already")
        // The later commit was only an edit; the reload before it still restarts the follows.
        #expect(host.handleTurn(.followCommitted).contains(.follow(.terminate(1))))
        #expect(host.handleTurn(.followCommitted) == [])
    }

    @Test func anEditsCommitIsFollowedWithoutRestartingTheFollows() throws {
        var host = try R.host()
        let state = host.live.head
        var edited = state.layout
        try edited.set(page: 0, index: 6, button: R.later)
        let next = host.live.advance(layout: edited, edits: [])
        _ = host.handleTurn(.pluginsStarted(PluginCatalog(), folders: []))
        // Talk's plugin is told nothing: its buttons did not change.
        #expect(R.committed(&host, next) == [])
        #expect(host.live.committed == next)
    }

    @Test func anotherProfilesCommitGoesToThePlugins() throws {
        var host = try R.host()
        _ = host.handleTurn(.pluginsStarted(PluginCatalog(), folders: []))
        let layout = try Fixture.layout(["S"])
        let next = host.live.advance(layout: layout, profile: "stream", edits: [])
        let actions = R.committed(&host, next)
        #expect(actions == [.pluginButtons("talk", [])])
        #expect(host.live.committed.profile == "stream")
    }

    @Test func aFaceOfAButtonTheCommitRemovedIsCleared() throws {
        var host = try R.host()
        _ = host.handleTurn(Self.setFace(0, 0, title: "Home"))
        _ = host.handleTurn(.timerFired(.faceFrame))
        let layout = try Fixture.layout(["Other"])
        let next = host.live.advance(layout: layout, edits: [])
        _ = R.committed(&host, next)
        #expect(host.faces.current.isEmpty)
    }
}
