import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing
@testable import DeckHost
@testable import DeckProfiles

/// Which plugins hear of a new button set, the hold slots, and the problems
/// of manifests and settings: decided by ``HostState`` from the catalog it
/// holds (docs/host.md, "Plugins in the host"); the plugin manager only runs
/// the processes. Real manifests, read from a temporary plugins folder.
@Suite("HostState rules: the plugins' buttons, hold slots and problems")
struct HostRulesPluginsTests {
    typealias R = Rules

    /// A plugins folder: `talk` (a hold command, a `say` command with a
    /// short text setting), `other`, and a `broken` manifest.
    final class Plugins {
        let folder: TemporaryDirectory

        init(_ plugins: [String: String] = Plugins.standard) throws {
            folder = try TemporaryDirectory(prefix: "rule-plugins")
            for (id, manifest) in plugins {
                try FileManager.default.createDirectory(at: folder.appending(id), withIntermediateDirectories: true)
                try Data(manifest.utf8).write(to: folder.appending("\(id)/plugin.yaml"))
            }
        }

        static let talk = """
            id: talk
            exec: [/bin/sh]
            commands:
              - {name: hold, hold: true}
              - name: say
                settings:
                  text: {type: string, maxLength: 3}

            """
        static let standard = ["talk": talk, "other": "id: other\nexec: [/bin/sh]\ncommands: [go]\n",
                               "broken": "id: broken\nexec: ./plugin\n"]

        var catalog: PluginCatalog { PluginCatalog.scan(folders: [folder.path], searchPath: nil) }
    }

    static func button(_ plugin: String, _ command: String, name: String, settings: [String: DeckValue]? = nil) -> DeckButton {
        DeckButton(name: name, action: .plugin(id: plugin, command: command, settings: settings))
    }

    static func told(_ button: DeckButton, at index: Int) -> PluginButton {
        guard case let .plugin(_, command, settings) = button.action else { fatalError("not a plugin button") }
        return PluginButton(page: 0, index: index, name: button.name, command: command, settings: settings ?? [:])
    }

    static func pluginButtons(_ actions: [HostAction]) -> [HostAction] {
        actions.filter { if case .pluginButtons = $0 { true } else { false } }
    }

    static let go = button("other", "go", name: "Go")

    /// ``Rules/host()`` with `other`'s Go at 0/5 besides `talk`'s Talk at 0/4.
    static func host() throws -> HostState {
        var layout = try R.layout()
        try layout.set(page: 0, index: 5, button: go)
        return try R.host(layout: layout)
    }

    @Test func theStartTellsEachPluginItsButtonsThenRelabelsTheHoldSlots() throws {
        let plugins = try Plugins()
        let catalog = plugins.catalog
        var host = try Self.host()
        let actions = host.handle(.pluginsStarted(catalog, folders: [plugins.folder.path]))
        #expect(actions == catalog.problems.map { .log(.warning, "plugin manifest: \($0)") } + [
            .log(.info, "plugins: other, talk (from \(plugins.folder.path))"),
            .pluginButtons("other", [Self.told(Self.go, at: 5)]),
            .pluginButtons("talk", [Self.told(R.talk, at: 4)]),
            .perform(.broadcastLayout),
        ])
        #expect(!catalog.problems.isEmpty, "the broken manifest is a problem")
        #expect(host.live.lines.holdSlots == [DeckSlot(page: 0, index: 4)])
    }

    @Test func nothingIsToldBeforeThePluginsStart() throws {
        var host = try Self.host()
        var edited = host.live.committed.layout
        try edited.set(page: 0, index: 7, button: Self.go)
        #expect(Self.pluginButtons(R.committed(&host, host.live.advance(layout: edited, edits: []))).isEmpty)
    }

    @Test func aLayoutChangeThatTouchesOnePluginsButtonsTellsThatPluginOnly() throws {
        var host = try Self.host()
        _ = host.handle(.pluginsStarted(try Plugins().catalog, folders: []))
        var edited = host.live.committed.layout
        try edited.set(page: 0, index: 7, button: Self.go)
        let actions = R.committed(&host, host.live.advance(layout: edited, edits: []))
        #expect(Self.pluginButtons(actions) == [.pluginButtons("other", [Self.told(Self.go, at: 5), Self.told(Self.go, at: 7)])])
        // An edit of a button no plugin has tells no plugin.
        try edited.set(page: 0, index: 8, button: R.later)
        #expect(Self.pluginButtons(R.committed(&host, host.live.advance(layout: edited, edits: []))).isEmpty)
    }

    @Test func aPluginWhoseButtonsAllWentIsToldItHasNone() throws {
        var host = try Self.host()
        _ = host.handle(.pluginsStarted(try Plugins().catalog, folders: []))
        let actions = R.committed(&host, host.live.advance(layout: try Fixture.layout(["S"]), profile: "stream", edits: []))
        #expect(Self.pluginButtons(actions) == [.pluginButtons("other", []), .pluginButtons("talk", [])])
        #expect(actions.contains(.perform(.broadcastLayout)) == false, "the commit's own layout carries the hold slots")
        #expect(host.live.lines.holdSlots == [])
    }

    @Test func aMissingPluginIsWarnedAboutOnceUntilItIsBack() throws {
        let plugins = try Plugins(["other": Plugins.standard["other"]!])
        var host = try Self.host()
        let started = host.handle(.pluginsStarted(plugins.catalog, folders: [plugins.folder.path]))
        let warning = HostAction.log(.warning, "buttons of the live layout use plugin 'talk', which is not installed (looked in "
                                     + "\(plugins.folder.path); a plugin added there later is found by 'deckctl reload')")
        #expect(started.filter { $0 == warning }.count == 1)
        var edited = host.live.committed.layout
        try edited.set(page: 0, index: 7, button: R.talk)
        let moved = R.committed(&host, host.live.advance(layout: edited, edits: []))
        #expect(Self.pluginButtons(moved) == [.pluginButtons("talk", [Self.told(R.talk, at: 4), Self.told(R.talk, at: 7)])])
        #expect(!moved.contains(warning), "told once, not once per layout change")
    }

    /// A reload's scan, with the plugins folders read again as `fresh`.
    static func reload(_ host: inout HostState, plugins fresh: PluginCatalog) throws -> [HostAction] {
        let asked = host.handle(.request(R.control, R.message(.reload)))
        guard case .disk(let job)? = asked.first else { throw PluginsTestError.noScan(asked) }
        return host.handle(.diskFinished(job.id, .scanned(LayoutScan(profiles: .success(host.catalog), plugins: fresh))))
    }

    enum PluginsTestError: Error { case noScan([HostAction]) }

    @Test func aReloadThatAddsAHoldCommandRelabelsAndBroadcastsOnce() throws {
        let plugins = try Plugins(["other": Plugins.standard["other"]!])
        var host = try Self.host()
        _ = host.handle(.pluginsStarted(plugins.catalog, folders: [plugins.folder.path]))
        #expect(host.live.lines.holdSlots == [])
        try FileManager.default.createDirectory(at: plugins.folder.appending("talk"), withIntermediateDirectories: true)
        try Data(Plugins.talk.utf8).write(to: plugins.folder.appending("talk/plugin.yaml"))
        let fresh = plugins.catalog
        let actions = try Self.reload(&host, plugins: fresh)
        #expect(Array(actions.prefix(3)) == [
            .applyPlugins(fresh), .log(.info, "reloaded the plugins: other, talk"), .perform(.broadcastLayout),
        ])
        #expect(actions.filter { $0 == .perform(.broadcastLayout) }.count == 1)
        #expect(host.live.lines.holdSlots == [DeckSlot(page: 0, index: 4)])
        // The same plugins again: nothing to relabel.
        #expect(!(try Self.reload(&host, plugins: fresh)).contains(.perform(.broadcastLayout)))
    }

    @Test func aReloadThatBreaksAPluginSaysSoOnceAndWarnsOfItsButtons() throws {
        let plugins = try Plugins()
        var host = try Self.host()
        _ = host.handle(.pluginsStarted(plugins.catalog, folders: [plugins.folder.path]))
        try Data("id: other\nexec: ./plugin\n".utf8).write(to: plugins.folder.appending("other/plugin.yaml"))
        let fresh = plugins.catalog
        let reason = try #require(fresh.unavailability(id: "other")?.reason)
        let actions = try Self.reload(&host, plugins: fresh)
        #expect(Array(actions.prefix(fresh.problems.count + 4)) == [.applyPlugins(fresh)]
            + fresh.problems.map { .log(.warning, "plugin manifest: \($0)") } + [
                .perform(.event(.plugin(PluginStatus(id: "other", state: "unavailable", message: reason)))),
                .log(.warning, "buttons of the live layout use plugin 'other', which is unavailable: \(reason)"),
                .log(.info, "reloaded the plugins: talk"),
            ])
        let again = try Self.reload(&host, plugins: fresh)
        #expect(!again.contains { if case .perform(.event(.plugin)) = $0 { true } else { false } }, "unavailable already")
        #expect(!Rules.logLines(again).contains { $0.hasPrefix("buttons of the live layout use plugin") })
    }

    @Test func aReloadBeforeThePluginsStartedAppliesNoPlugins() throws {
        var host = try Self.host()
        let actions = try Self.reload(&host, plugins: try Plugins().catalog)
        #expect(!actions.contains { if case .applyPlugins = $0 { true } else { false } })
    }

    /// A layouts folder with one profile whose `say` button's text is too long.
    static func profiles() throws -> (TemporaryDirectory, ProfileCatalog) {
        let folder = try TemporaryDirectory(prefix: "rule-profiles")
        let yaml = "pages:\n  - buttons:\n      0: {name: Say, action: {plugin: talk, command: say, settings: {text: toolong}}}\n"
        try Data(yaml.utf8).write(to: folder.appending("default.yaml"))
        return (folder, try ProfileFolder(path: folder.path).scan())
    }

    @Test func statusProblemsAreTheManifestsAndTheSettingsOnesCheckedOncePerCatalog() throws {
        let plugins = try Plugins()
        let (folder, profiles) = try Self.profiles()
        var host = try Self.host()
        host.catalog = profiles
        #expect(host.pluginProblems.isEmpty, "nothing is known of the plugins before they start")
        _ = host.handle(.pluginsStarted(plugins.catalog, folders: [plugins.folder.path]))
        let settings = plugins.catalog.settingsProblems(in: profiles)
        #expect(settings.count == 1 && host.plugins.settingsProblems == settings)
        #expect(host.pluginProblems == (plugins.catalog.problems + settings).map(host.problem))
        #expect(host.pluginProblems.last?.file == folder.path + "/default.yaml", "the settings problem comes last")
        host.catalog = ProfileCatalog(folder: "/layouts", files: [])
        #expect(host.plugins.settingsProblems.isEmpty, "a new scan of the layouts folder is checked anew")
    }

    @Test func theStartAndAnExplicitReloadLogEverySettingsProblem() throws {
        let plugins = try Plugins()
        let (_, profiles) = try Self.profiles()
        var host = try Self.host()
        host.catalog = profiles
        let problem = try #require(plugins.catalog.settingsProblems(in: profiles).first)
        let line = HostAction.log(.warning, "\(problem) (the profile loads; this button's plugin gets the setting as written)")
        #expect(host.handle(.pluginsStarted(plugins.catalog, folders: [])).last == line)
        #expect(try Self.reload(&host, plugins: plugins.catalog).contains(line))
    }

    @Test func aSaveLogsTheSettingsProblemsOfTheFilesItChangedOnly() throws {
        let plugins = try Plugins()
        let (folder, profiles) = try Self.profiles()
        var host = try Self.host()
        host.catalog = profiles
        _ = host.handle(.pluginsStarted(plugins.catalog, folders: []))
        let yaml = "pages:\n  - buttons:\n      1: {name: Hey, action: {plugin: talk, command: say, settings: {text: 12345}}}\n"
        try Data(yaml.utf8).write(to: folder.appending("other.yaml"))
        let saved = try ProfileFolder(path: folder.path).scan()
        let asked = host.handle(.profilesChanged)
        guard case .disk(let job)? = asked.first else { throw PluginsTestError.noScan(asked) }
        let actions = host.handle(.diskFinished(job.id, .scanned(LayoutScan(profiles: .success(saved), plugins: nil))))
        let warned = Rules.logLines(actions).filter { $0.hasSuffix("(the profile loads; this button's plugin gets the setting as written)") }
        #expect(warned.count == 1 && warned.first?.hasPrefix(folder.path + "/other.yaml:") == true, "\(warned)")
        #expect(host.plugins.settingsProblems.count == 2, "status still shows the unchanged file's problem")
    }
}
