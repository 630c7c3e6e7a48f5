import DeckModel
import DeckPlugins
import DeckProfiles
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// PluginHostTests' and PluginReloadTests' rules on the rules alone: what
/// the plugin manager reports becomes events, faces and log lines at once;
/// a reload's plugins are applied before its profiles and before its reply,
/// never while the host stops; SIGHUP is never superseded. The deckd tests
/// keep the plugin processes: their pipes, restarts, kills and timers.
@Suite("HostState rules: plugin events and reloads of the plugins")
struct HostRulesPluginEventsTests {
    typealias R = Rules
    typealias Reload = HostRulesReloadTests

    static let statuses = [
        PluginStatus(id: "recorder", state: "running"),
        PluginStatus(id: "crashy", state: "restarting", message: "it exited with status 3; starting it again in 400 ms"),
        PluginStatus(id: "crashy", state: "failed", message: "it exited with status 3; 5 failures within 1 minute"),
        PluginStatus(id: "good", state: "stopped"),
        PluginStatus(id: "broken", state: "unavailable", message: "plugin.yaml:2:1: unknown key 'exce'"),
    ]

    @Test(arguments: statuses)
    func everyStatusAPluginReachesIsAnEventAtOnce(_ status: PluginStatus) throws {
        var host = try R.host()
        let before = host.live.head
        #expect(host.handleTurn(.plugin(.status(status))) == [.perform(.event(.plugin(status)))])
        #expect(host.live.head == before && host.faces.current.isEmpty)
    }

    @Test(arguments: LogLevel.allCases)
    func aPluginsLogLineKeepsItsLevel(_ level: LogLevel) throws {
        var host = try R.host()
        #expect(host.handleTurn(.plugin(.log(level, "plugin 'noisy' sent a line the host cannot use"))) == [
            .log(level, "plugin 'noisy' sent a line the host cannot use"),
        ])
    }

    @Test func aTitleTakenBackTellsBothLevelsTheName() throws {
        var host = try R.host()
        let slot = DeckSlot(page: 0, index: 4)
        _ = host.handleTurn(.plugin(.title(slot, "up 120")))
        _ = host.handleTurn(R.frameEnded)
        #expect(host.handleTurn(.plugin(.title(slot, nil))) == [
            .face(.sendFace(ButtonFace(page: 0, index: 4))), .face(.sendTitle(slot, nil)), R.frameAsked,
        ])
    }

    @Test func aTitleForASlotTheLayoutEmptiedIsLogged() throws {
        var host = try R.host()
        #expect(host.handleTurn(.plugin(.title(DeckSlot(page: 0, index: 7), "holding 0.5 s"))) == [
            .log(.warning, "a plugin: slot 0/7 is empty; a face needs a button"),
        ])
    }

    @Test func titlesOfManyPressesWithinAFrameSendTheNewestOnce() throws {
        var host = try R.host()
        let slot = DeckSlot(page: 0, index: 4)
        _ = host.handleTurn(.plugin(.title(slot, "down 1")))
        for count in 2...120 { #expect(host.handleTurn(.plugin(.title(slot, "up \(count)"))) == []) }
        #expect(host.handleTurn(R.frameEnded) == HostRulesFacesTests.shownAtOnce(0, 4, "up 120"))
    }

    /// `deckctl reload; deckctl status`: the reply is behind the plugins applied.
    @Test func aReloadAppliesThePluginsBeforeItsReply() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        _ = host.handleTurn(.pluginsStarted(PluginCatalog(), folders: []))
        let job = try Reload.scan(host.handleTurn(.request(R.control, R.message(.reload))))
        let plugins = PluginCatalog()
        let actions = Reload.finished(&host, job, host.catalog, plugins: plugins)
        #expect(actions == [
            .applyPlugins(plugins), .log(.info, "reloaded the plugins: none"),
            .commit(Commit(Outcome([
                .ok(R.control, 1, withRevision: true),
                .event(.reload(profile: "default", revision: 5, problems: [], by: R.deckctl)),
                .log(.info, "reloaded the profiles by deckctl; 'default' did not change, its live layout stays"),
            ]))),
        ])
    }

    @Test func aFolderThatCannotBeReadStillAppliesThePlugins() throws {
        var host = try R.host()
        _ = host.handleTurn(.pluginsStarted(PluginCatalog(), folders: []))
        let job = try Reload.scan(host.handleTurn(.signal(.hangUp)))
        let plugins = PluginCatalog()
        let error = DeckProfilesError.unreadableFolder(path: "/layouts", reason: "Permission denied")
        #expect(host.handleTurn(.diskFinished(job.id, .scanned(LayoutScan(profiles: .failure(error), plugins: plugins)))) == [
            .applyPlugins(plugins), .log(.info, "reloaded the plugins: none"), .log(.error, "could not reload the profiles: \(error)"),
        ])
    }

    enum Asker: String, CaseIterable, Sendable { case sighup, deckctl }

    /// The plugins are being stopped: a scan that finishes then does not
    /// start them again (its profiles still go the pipeline's way).
    @Test(arguments: Asker.allCases)
    func aScanThatFinishesWhileStoppingAppliesNoPlugins(_ asker: Asker) throws {
        var host = try R.host()
        let input: HostInput = asker == .sighup ? .signal(.hangUp) : .request(R.control, R.message(.reload))
        let job = try Reload.scan(host.handleTurn(input))
        _ = host.handleTurn(.signal(.terminate))
        let actions = Reload.finished(&host, job, host.catalog, plugins: PluginCatalog())
        #expect(!actions.contains { if case .applyPlugins = $0 { true } else { false } })
        #expect(actions.count == 1 && R.commit(actions) != nil)
    }

    /// SIGHUP is answered with what its own scan read: a second one, or a
    /// save, never makes it give up.
    @Test func aSighupScanIsNeverSuperseded() throws {
        var host = try R.host()
        let first = try Reload.scan(host.handleTurn(.signal(.hangUp)))
        _ = host.handleTurn(.profilesChanging)
        let second = try Reload.scan(host.handleTurn(.signal(.hangUp)))
        let catalog = Reload.catalog([try Reload.file("default", ["A"])])
        #expect(R.commit(Reload.finished(&host, first, catalog))?.writeReason == "reload")
        #expect(Reload.finished(&host, second, catalog) == [.commit(Commit(Outcome([])))])
        #expect(host.live.head.revision == 6)
    }

    @Test func restartWithResetIsAskedOfTheShell() throws {
        var host = try R.host()
        #expect(host.handleTurn(.request(R.control, R.message(.restartPlugin(id: "talk", reset: true), id: 4))) == [
            .restartPlugin("talk", reset: true, for: R.control, id: 4),
        ])
    }

    @Test func theDeadlineBeforeAStopDoesNothing() throws {
        var host = try R.host()
        #expect(R.deadlinePassedWithPluginsRunning(&host) == [])
        #expect(!host.stopping)
    }

    /// SIGTERM with a stubborn plugin: the loop waits for the plugins,
    /// whatever the disk says, until the deadline.
    @Test func theStopWaitsForEveryPluginUntilTheDeadline() throws {
        var host = try R.host()
        _ = host.handleTurn(.signal(.terminate))
        for _ in 0..<3 { #expect(host.handleTurn(.stopProgress(pluginsStopped: false)) == []) }
        #expect(!host.shutdown.isStopped)
        #expect(R.deadlinePassedWithPluginsRunning(&host) == [
            .log(.warning, "plugins are still stopping; they are killed as the host exits"), .stop(.stopLoop),
        ])
        #expect(host.shutdown.isStopped)
    }
}
