import DeckModel
import DeckPlugins
import DeckTestSupport
import Foundation
import Testing

/// PLUGINS.md §1: `hold: true` on a command, and the slots PROTOCOL.md §5's
/// `holdSlots` lists for it.
@Suite struct HoldCommandTests {
    @Test func holdIsReadAsABooleanAndAnythingElseIsAProblemAtIt() throws {
        let folder = try ManifestTests.Folder()
        let manifest = try folder.parse("id: ptt\nexec: [./run]\ncommands:\n  - {name: talk, hold: true}\n  - {name: mute, hold: no}\n  - stop\n")
        #expect(manifest.commands == [PluginCommand(name: "talk", hold: true), PluginCommand(name: "mute"), PluginCommand(name: "stop")])
        #expect(folder.problems("id: ptt\nexec: [./run]\ncommands:\n  - {name: talk, hold: maybe}\n")
            == ["4:24: hold must be true or false, not 'maybe'"])
        #expect(folder.problems("id: ptt\nexec: [./run]\ncommands:\n  - {name: talk, hold: [x]}\n")
            == ["4:24: hold must be true or false, not a list"])
    }

    @Test func theHoldExamplePluginDeclaresIt() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = PluginCatalog.scan(folders: [repository.path + "/plugins"], searchPath: "/usr/bin:/bin")
        let hold = try #require(catalog.manifests.first { $0.id == "hold" })
        #expect(hold.commands.contains { $0.name == "hold" && $0.hold })
    }

    @Test func holdSlotsAreTheButtonsOfHoldCommandsOfInstalledPlugins() throws {
        let folder = try TemporaryDirectory(prefix: "holds")
        for (id, commands) in [("ptt", "[{name: talk, hold: true}, {name: tap}]"), ("other", "[{name: talk}]")] {
            let plugin = folder.path + "/" + id
            try FileManager.default.createDirectory(atPath: plugin, withIntermediateDirectories: true)
            try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: plugin + "/run"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: plugin + "/run")
            try Data("id: \(id)\nexec: [./run]\ncommands: \(commands)\n".utf8).write(to: URL(fileURLWithPath: plugin + "/plugin.yaml"))
        }
        let catalog = PluginCatalog.scan(folders: [folder.path], searchPath: nil)
        func plugin(_ id: String, _ command: String) -> DeckButton {
            DeckButton(name: "\(id) \(command)", action: .plugin(id: id, command: command, settings: nil))
        }
        var pages = [DeckPage.empty(slots: 4), DeckPage.empty(slots: 4)]
        pages[0].buttons[1] = plugin("ptt", "talk")
        pages[0].buttons[2] = plugin("ptt", "tap")
        pages[0].buttons[3] = plugin("other", "talk")
        pages[1].buttons[0] = plugin("ptt", "talk")
        pages[1].buttons[1] = DeckButton(name: "Run", action: .run(command: "true"))
        pages[1].buttons[2] = plugin("missing", "talk")
        let layout = try DeckLayout(slotsPerPage: 4, pages: pages)
        #expect(catalog.holdSlots(in: layout) == [DeckSlot(page: 0, index: 1), DeckSlot(page: 1, index: 0)])
        #expect(PluginCatalog().holdSlots(in: layout).isEmpty)
    }
}
