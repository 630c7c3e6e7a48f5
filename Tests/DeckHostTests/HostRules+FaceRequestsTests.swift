import DeckModel
import DeckPluginKit
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// FaceHostTests' rules (docs/faces.md §4, §5) on the rules alone: `setFace`
/// on a button with states, what level-8 devices (`sendFace`) and level-7
/// ones (`sendTitle`) are told, what a later welcome shows (the table's
/// `current`), and that a face is never a revision or a write. The deckd
/// test keeps the shell's part: which session gets which line.
@Suite("HostState rules: setFace on buttons with states")
struct HostRulesFaceRequestsTests {
    typealias R = Rules

    /// FaceHostTests' profile: Backup (states idle, failed) at 0/0, Files at 0/1;
    /// Talk, a plugin button with states off and live, at 0/4.
    static let profile = FaceHostTests.profile + """

              4:
                name: Talk
                action: {plugin: talk, command: hold}
                states: [{id: "off"}, {id: live}]
        """

    static func host() throws -> HostState {
        try R.serving(["default.yaml": Self.profile])
    }

    static func setFace(_ page: Int, _ index: Int, state: String? = nil, title: String? = nil, clear: Bool = false) -> HostInput {
        HostRulesFacesTests.setFace(page, index, state: state, title: title, clear: clear)
    }

    /// `ok` to deckctl and the log line: what every accepted `setFace` ends with.
    static func accepted(_ page: Int, _ index: Int) -> HostAction {
        .commit(Commit(Outcome([.ok(R.control, 1, withRevision: false), .log(.info, "face of \(page)/\(index) set by deckctl")]),
                       sender: R.control))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let page: Int, index: Int, state: String?, title: String?
        /// What the face table sends at once (no frame runs yet).
        let sent: [HostAction]
        var testDescription: String { "\(page)/\(index) state \(state ?? "-") title \(title ?? "-")" }
    }

    static let cases: [Case] = [
        // A state is level 8's only: level-7 devices hear nothing of it.
        Case(page: 0, index: 0, state: "failed", title: nil,
             sent: [.face(.sendFace(ButtonFace(page: 0, index: 0, state: "failed"))), R.frameAsked]),
        // A title reaches both levels, each its way.
        Case(page: 0, index: 1, state: nil, title: "3 new",
             sent: [.face(.sendFace(ButtonFace(page: 0, index: 1, title: "3 new"))),
                    .face(.sendTitle(DeckSlot(page: 0, index: 1), "3 new")), R.frameAsked]),
        Case(page: 0, index: 0, state: "failed", title: "Backup!",
             sent: [.face(.sendFace(ButtonFace(page: 0, index: 0, title: "Backup!", state: "failed"))),
                    .face(.sendTitle(DeckSlot(page: 0, index: 0), "Backup!")), R.frameAsked]),
        // The first state is state 0, the face a button has anyway: nothing to send.
        Case(page: 0, index: 0, state: "idle", title: nil, sent: []),
    ]

    @Test(arguments: cases)
    func anAcceptedSetFaceIsSentAndNeverARevisionOrAWrite(_ face: Case) throws {
        var host = try Self.host()
        let before = host.live.head
        #expect(host.handleTurn(Self.setFace(face.page, face.index, state: face.state, title: face.title))
            == [Self.accepted(face.page, face.index)] + face.sent)
        #expect(host.live.head == before && host.live.committed == before, "a face is not layout")
    }

    @Test func anUnknownStateIsNotFoundNamingTheButtonsStates() throws {
        var host = try Self.host()
        #expect(host.handleTurn(Self.setFace(0, 0, state: "exploded")) == [
            R.refused(.notFound, "button 'Backup' at 0/0 has no state 'exploded' (its states are idle, failed); its face is unchanged",
                      request: "setFace", by: R.control, who: R.deckctl),
        ])
        #expect(host.faces.current.isEmpty)
    }

    @Test func aTitleForAnEmptySlotIsEmpty() throws {
        var host = try Self.host()
        #expect(host.handleTurn(Self.setFace(0, 5, title: "x")) == [
            R.refused(.empty, "slot 0/5 is empty; a face needs a button", request: "setFace", by: R.control, who: R.deckctl),
        ])
    }

    @Test func aSlotOutsideThePagesIsOutOfRange() throws {
        var host = try Self.host()
        var message = ""
        do { try host.live.committed.layout.checkRange(page: 3, index: 0) } catch { message = error.description }
        #expect(!message.isEmpty)
        #expect(host.handleTurn(Self.setFace(3, 0, title: "x")) == [
            R.refused(.outOfRange, message, request: "setFace", by: R.control, who: R.deckctl),
        ])
    }

    @Test func aLaterWelcomeShowsEveryFaceSet() throws {
        var host = try Self.host()
        _ = host.handleTurn(Self.setFace(0, 0, state: "failed"))
        _ = host.handleTurn(Self.setFace(0, 1, title: "3 new"))
        #expect(host.faces.current == [ButtonFace(page: 0, index: 0, state: "failed"), ButtonFace(page: 0, index: 1, title: "3 new")])
    }

    @Test func aClearSendsTheDefaultFace() throws {
        var host = try Self.host()
        _ = host.handleTurn(Self.setFace(0, 0, state: "failed"))
        #expect(host.handleTurn(R.frameEnded) == [])
        #expect(host.handleTurn(Self.setFace(0, 0, clear: true)) == [
            Self.accepted(0, 0), .face(.sendFace(ButtonFace(page: 0, index: 0))), R.frameAsked,
        ])
        #expect(host.faces.current.isEmpty)
    }

    @Test func aClearOfAButtonNeverFacedSendsNothing() throws {
        var host = try Self.host()
        #expect(host.handleTurn(Self.setFace(0, 1, clear: true)) == [Self.accepted(0, 1)])
    }

    @Test func aTitleTakenBackTellsLevelSevenDevicesTheName() throws {
        var host = try Self.host()
        _ = host.handleTurn(Self.setFace(0, 1, title: "3 new"))
        _ = host.handleTurn(R.frameEnded)
        #expect(host.handleTurn(Self.setFace(0, 1, clear: true)) == [
            Self.accepted(0, 1),
            .face(.sendFace(ButtonFace(page: 0, index: 1))), .face(.sendTitle(DeckSlot(page: 0, index: 1), nil)), R.frameAsked,
        ])
    }

    static let talk = PluginButton(page: 0, index: 4, name: "Talk", command: "hold")

    @Test func aPluginsStateIsSentAndItsEndTakesItBack() throws {
        var host = try Self.host()
        #expect(host.handleTurn(.plugin(.face(plugin: "talk", [Self.talk], .setState(target: .slot(page: 0, index: 4), state: "live")))) == [
            .face(.sendFace(ButtonFace(page: 0, index: 4, state: "live"))), R.frameAsked,
        ])
        _ = host.handleTurn(R.frameEnded)
        #expect(host.handleTurn(.plugin(.ended("talk"))) == [.face(.sendFace(ButtonFace(page: 0, index: 4))), R.frameAsked])
        #expect(host.faces.current.isEmpty)
    }

    @Test func theEndOfAnotherPluginLeavesTheFaces() throws {
        var host = try Self.host()
        _ = host.handleTurn(.plugin(.face(plugin: "talk", [Self.talk], .setState(target: .slot(page: 0, index: 4), state: "live"))))
        _ = host.handleTurn(R.frameEnded)
        #expect(host.handleTurn(.plugin(.ended("clock"))) == [])
        #expect(host.faces.current == [ButtonFace(page: 0, index: 4, state: "live")])
    }

    @Test func aSetFaceStateOnAPluginButtonStaysWhenThePluginEnds() throws {
        var host = try Self.host()
        _ = host.handleTurn(Self.setFace(0, 0, state: "failed"))
        _ = host.handleTurn(R.frameEnded)
        #expect(host.handleTurn(.plugin(.ended("talk"))) == [])
        #expect(host.faces.current == [ButtonFace(page: 0, index: 0, state: "failed")])
    }

    @Test func aPluginsMessagesThatAreNotFacesChangeNothing() throws {
        var host = try Self.host()
        for message in [PluginMessage.ready, .log(level: .info, message: "hi")] {
            #expect(host.handleTurn(.plugin(.face(plugin: "talk", [Self.talk], message))) == [])
        }
        #expect(host.faces.current.isEmpty)
    }
}
