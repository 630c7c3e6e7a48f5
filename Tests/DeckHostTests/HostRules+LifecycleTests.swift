import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// Signals, the stop's order and its end, and `restart PLUGIN`: the rules
/// decide, the shell performs the steps (docs/host.md, "Stopping").
@Suite("HostState rules: signals, stopping and restarting plugins")
struct HostRulesLifecycleTests {
    typealias R = Rules

    static let stopSteps: [HostAction] = [
        .stop(.closeListeners), .stop(.stopWatching), .stop(.stopActions),
        .stop(.stopPlugins(grace: .milliseconds(1000), killGrace: .milliseconds(400))),
        .stop(.holdReading), .stop(.releaseCommits), .stop(.checkProgress), .armTimer(.stopDeadline, after: .milliseconds(1500)),
    ]

    @Test(arguments: [(HostSignal.terminate, "SIGTERM"), (.interrupt, "SIGINT")])
    func aStopSignalStopsInTheOneOrder(_ signal: HostSignal, _ name: String) throws {
        var host = try R.host()
        #expect(host.handle(.signal(signal)) == [.log(.info, "\(name): stopping")] + Self.stopSteps)
        #expect(host.stopping && !host.shutdown.isStopped)
    }

    @Test func aSecondStopSignalDoesNothing() throws {
        var host = try R.host()
        _ = host.handle(.signal(.terminate))
        #expect(host.handle(.signal(.interrupt)) == [])
        #expect(host.handle(.signal(.terminate)) == [])
    }

    @Test func progressBeforeTheStopDoesNotStop() throws {
        var host = try R.host()
        #expect(host.handle(.stopProgress(pluginsStopped: true)) == [])
        #expect(!host.stopping)
    }

    @Test func theLoopStopsOnceThePluginsAreGoneAndThePipelineIsEmpty() throws {
        var host = try R.host()
        _ = host.handle(.signal(.terminate))
        #expect(host.handle(.stopProgress(pluginsStopped: false)) == [])
        #expect(host.handle(.stopProgress(pluginsStopped: true)) == [.stop(.stopLoop)])
        #expect(host.shutdown.isStopped && host.shutdown.exitStatus == .success)
        #expect(host.handle(.stopProgress(pluginsStopped: true)) == [])
        #expect(host.handle(.timerFired(.stopDeadline)) == [])
    }

    @Test func anEditWaitingForTheDiskHoldsTheStop() throws {
        var host = try R.host()
        let actions = host.handle(.request(R.phone, R.message(.setButton(page: 0, index: 6, button: R.files))))
        let commit = try #require(actions.first.flatMap { if case .commit(let c) = $0 { c } else { nil } })
        _ = host.commits.submit(commit.outcome, write: commit.outcome.live?.snapshot(reason: "setButton"), editor: R.phone,
                                sender: R.phone, now: .now)
        _ = host.handle(.signal(.terminate))
        #expect(host.handle(.stopProgress(pluginsStopped: true)) == [])
        // A later report from the disk's side knows nothing of the plugins; the state remembers them gone.
        #expect(host.handle(.stopProgress(pluginsStopped: false)) == [])
        #expect(host.handle(.timerFired(.stopDeadline)) == [
            .log(.warning, "the disk did not finish the last edits in time; stopping without their replies"), .stop(.stopLoop),
        ])
        #expect(host.shutdown.exitStatus == .failure)
    }

    @Test func theDeadlineKillsPluginsStillStopping() throws {
        var host = try R.host()
        _ = host.handle(.signal(.terminate))
        #expect(host.handle(.stopProgress(pluginsStopped: false)) == [])
        #expect(host.handle(.timerFired(.stopDeadline)) == [
            .log(.warning, "plugins are still stopping; they are killed as the host exits"), .stop(.stopLoop),
        ])
        #expect(host.shutdown.exitStatus == .success)
    }

    @Test func nothingReloadsWhileStopping() throws {
        var host = try R.host()
        _ = host.handle(.signal(.terminate))
        #expect(host.handle(.signal(.hangUp)) == [.log(.info, "SIGHUP while stopping: not reloading")])
        #expect(host.handle(.profilesChanged) == [])
    }

    @Test func restartIsAskedOfTheShell() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.control, R.message(.restartPlugin(id: "talk")))) == [
            .restartPlugin("talk", for: R.control, id: 1),
        ])
    }

    @Test func aRestartedPluginIsOk() throws {
        var host = try R.host()
        #expect(host.handle(.pluginRestarted(R.control, 1, plugin: "talk", .restarted)) == [
            .commit(Commit(Outcome([.ok(R.control, 1, withRevision: false), .log(.info, "restarted plugin 'talk' by deckctl")]),
                           sender: R.control)),
        ])
    }

    @Test(arguments: [([String](), "none"), (["clock", "media"], "clock, media")])
    func anUnknownPluginIsNotFoundNamingTheInstalledOnes(_ installed: [String], _ named: String) throws {
        var host = try R.host()
        #expect(host.handle(.pluginRestarted(R.control, 1, plugin: "ghost", .notInstalled(installed: installed))) == [
            R.refused(.notFound, "no plugin 'ghost' is installed (installed: \(named))", request: "restart", by: R.control,
                      who: R.deckctl),
        ])
    }

    @Test func aRestartForAClientThatLeftIsNotAnswered() throws {
        var host = try R.host()
        _ = host.handle(.closed(R.control, reason: .peerClosed, closeReason: nil, now: 0))
        #expect(host.handle(.pluginRestarted(R.control, 1, plugin: "talk", .restarted)) == [])
    }
}
