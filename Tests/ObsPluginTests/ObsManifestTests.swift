import DeckModel
import DeckPlugins
import DeckProfiles
import DeckTestSupport
import Foundation
import Testing
@testable import ObsPlugin

/// plugins/obs/plugin.yaml's settings declarations against the plugin's own
/// check (``ObsCommand``): a button the host's check (deckd's load, `deckctl
/// check --plugins`) passes, the plugin takes, and one it flags, the plugin refuses.
@Suite struct ObsManifestTests {
    static let plugins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("plugins").path

    static let buttons: [(command: String, settings: [String: DeckValue], problem: String?)] = [
        ("scene", ["scene": .string("Main")], nil),
        ("scene", [:], "obs scene needs the setting 'scene'"),
        ("scene", ["scene": .int(5)], "'scene'"),
        ("preview-scene", ["scene": .string("Next"), "url": .string("ws://studio:4455"), "password": .string("pw")], nil),
        ("stream", ["passwordFile": .string("/run/obs-password")], nil),
        ("record", ["scene": .string("Main")], "'scene'"),
        ("mute", ["input": .string("Mic/Aux")], nil),
        ("mute", ["input": .string("Mic"), "volume": .int(3)], "unknown setting 'volume' of obs mute"),
        ("replay-save", [:], nil),
        ("screenshot", ["source": .string("Camera"), "width": .int(320), "every": .int(5)], nil),
        ("screenshot", ["source": .string("Camera"), "width": .int(4)], "'width'"),
        ("screenshot", ["source": .string("Camera"), "every": .int(0)], "'every'"),
    ]

    @Test(arguments: buttons)
    func theManifestAndThePluginAgreeOnAButton(command: String, settings: [String: DeckValue], problem: String?) throws {
        let catalog = PluginCatalog.scan(folders: [Self.plugins], searchPath: "/usr/bin:/bin")
        let manifest = try #require(catalog.manifest(id: "obs"))
        #expect(Set(manifest.commands.map(\.name)) == Set(ObsCommand.names))
        #expect(manifest.commands.allSatisfy { $0.settings != nil }, "every obs command declares its settings")

        let folder = try TemporaryDirectory(prefix: "obs-settings")
        let file = folder.path + "/obs.yaml"
        let written = settings.sorted { $0.key < $1.key }.map { "\($0.key): \(Self.yaml($0.value))" }.joined(separator: ", ")
        let profile = "pages:\n  - buttons:\n      0: {name: B, action: {plugin: obs, command: \(command), settings: {\(written)}}}\n"
        try Data(profile.utf8).write(to: URL(fileURLWithPath: file))
        let checked = try #require(ProfileCheck.check(paths: [file]).first)
        #expect(checked.problems.isEmpty, "\(checked.problems)")
        let problems = catalog.settingsProblems(checked.settingsSites).map(\.description)

        let plugin = Result { () throws(ObsSettingsError) in try ObsCommand(command: command, settings: settings) }
        if let problem {
            #expect(problems.count == 1 && problems[0].contains(problem), "\(problems)")
            #expect(throws: ObsSettingsError.self, "the plugin refuses it too") { try plugin.get() }
        } else {
            #expect(problems.isEmpty)
            #expect(throws: Never.self, "the plugin takes it too") { try plugin.get() }
        }
    }

    static func yaml(_ value: DeckValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .int(let number): "\(number)"
        default: "null"
        }
    }
}
