import DeckModel
import DeckPlugins
import DeckProtocol
import Testing
@testable import DeckHost

/// What the components post through the ``HostInbox`` (docs/host.md, "One
/// channel in"): a plugin press's result, a finished action, the folder
/// watch's news, a component's log line and the timers the rules arm, each
/// an input whose outcome is compared here.
@Suite("HostState rules: the inbox's inputs")
struct HostRulesInboxTests {
    typealias R = Rules

    static func press(_ button: DeckButton = R.talk, phase: PressPhase = .tap) -> ActionRequest {
        ActionRequest(page: 0, index: 4, button: button, phase: phase, by: R.kim)
    }

    static func ended(_ outcome: ActionOutcome, _ level: LogLevel, _ line: String, button: DeckButton = R.talk) -> [HostAction] {
        [.perform(.event(.action(page: 0, index: 4, button: button.name, action: button.action.kind, outcome: outcome, by: R.kim))),
         .log(level, line)]
    }

    /// A press that reached no plugin also flashes its button's alert: the device has no other word of it.
    static let alert: [HostAction] = [.face(.sendFace(ButtonFace(page: 0, index: 4, flash: .alert))),
                                      .armTimer(.faceFrame, after: HostState.faceFrame)]

    static let pressResults: [(PluginPressResult, [HostAction])] = [
        (.delivered, ended(.delivered, .info, "'Talk' (plugin) was delivered to its plugin")),
        (.unavailable("is restarting after it exited with status 1"),
         ended(.pluginUnavailable(plugin: "talk"), .warning,
               "'Talk' (plugin) could not reach plugin 'talk': it is restarting after it exited with status 1") + alert),
        (.dropped("is not reading its input, so the press was dropped"),
         ended(.failed(reason: "plugin 'talk' is not reading its input, so the press was dropped"), .debug,
               "'Talk' (plugin) failed: plugin 'talk' is not reading its input, so the press was dropped") + alert),
    ]

    @Test(arguments: pressResults)
    func aPluginPressResultIsThePressesActionEvent(_ result: PluginPressResult, _ expected: [HostAction]) throws {
        var host = try R.host()
        #expect(host.handleTurn(.plugin(.pressResult(Self.press(), result))) == expected)
    }

    @Test func aPressWithNoPluginManagerIsUnavailableBecauseTheHostStops() throws {
        var host = try R.host()
        #expect(host.handleTurn(.plugin(.pressWithoutManager(Self.press(phase: .up)))) == [
            .perform(.event(.action(page: 0, index: 4, button: "Talk", action: "plugin", outcome: .pluginUnavailable(plugin: "talk"),
                                    by: R.kim))),
            .log(.warning, "'Talk' (plugin) could not reach plugin 'talk': it is stopping with the host"),
        ])
    }

    @Test func aPressResultForAButtonThatIsNoPluginButtonDoesNothing() throws {
        var host = try R.host()
        #expect(host.handleTurn(.plugin(.pressResult(Self.press(R.term), .delivered))) == [])
        #expect(host.handleTurn(.plugin(.pressWithoutManager(Self.press(R.term)))) == [])
    }

    @Test func aFinishedRunIsItsActionEvent() throws {
        var host = try R.host()
        #expect(host.handleTurn(.actionFinished(Self.press(R.term), .exited(status: 2)))
            == Self.ended(.exited(status: 2), .warning, "'Term' (run) exited with status 2", button: R.term))
    }

    static let watchNews: [(FolderWatchNews, HostAction)] = [
        (.waiting(["a.yaml", "b.yaml"]),
         .log(.debug, "the layouts folder is scanned once a.yaml, b.yaml (still being written) is closed")),
        (.lost("the layouts folder /l was moved or removed"), .note("the layouts folder /l was moved or removed", level: .warning)),
        (.returned("the layouts folder /l is there again"), .log(.info, "the layouts folder /l is there again")),
    ]

    @Test(arguments: watchNews)
    func theFolderWatchsNewsIsLoggedOrNoted(_ news: FolderWatchNews, _ expected: HostAction) throws {
        var host = try R.host()
        #expect(host.handleTurn(.folderWatch(news)) == [expected])
    }

    @Test func aComponentsLineIsLoggedAsItSaid() throws {
        var host = try R.host()
        #expect(host.handleTurn(.log(.error, "could not watch the follow of `date`")) == [.log(.error, "could not watch the follow of `date`")])
    }

    @Test func progressBeforeTheStopIsNotRemembered() throws {
        var host = try R.host()
        #expect(host.handleTurn(.stopProgress(pluginsStopped: true)) == [])
        _ = host.handleTurn(.signal(.terminate))
        #expect(host.handleTurn(.timerFired(.stopDeadline)) == [
            .log(.warning, "plugins are still stopping; they are killed as the host exits"), .stop(.stopLoop),
        ])
    }

    @Test func aFaceFrameBeforeAnyChangeSendsNothingAndArmsNothing() throws {
        var host = try R.host()
        #expect(host.handleTurn(.timerFired(.faceFrame)) == [])
    }
}
