import DeckModel
import DeckPlugins
import DeckProfiles
import Foundation
import Testing

/// The fixtures of typed settings: `manifests/NAME.yaml` read as a plugin.yaml
/// with `NAME.expected` its problems as `LINE:COLUMN: message`, and
/// `profiles/NAME.yaml` checked against `profiles/plugins/` with `NAME.expected`
/// the exact `FILE:LINE:COLUMN: message` lines.
enum SettingsFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SettingsFixtures")
    static let manifests = directory.appendingPathComponent("manifests")
    static let profiles = directory.appendingPathComponent("profiles")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func names(in folder: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func lines(_ url: URL) throws -> [String] {
        String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

@Suite("Settings declarations in plugin manifests")
struct SettingsDeclarationTests {
    @Test func thereAreFixtures() {
        #expect(SettingsFixtures.names(in: SettingsFixtures.manifests).count >= 3)
        #expect(SettingsFixtures.names(in: SettingsFixtures.profiles).count >= 2)
    }

    @Test(arguments: SettingsFixtures.names(in: SettingsFixtures.manifests))
    func brokenDeclarationsGiveExactlyTheExpectedProblems(_ name: String) throws {
        let folder = SettingsFixtures.manifests
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent("\(name).yaml")))
        let expected = try SettingsFixtures.lines(folder.appendingPathComponent("\(name).expected"))
        do throws(DeckPluginsError) {
            _ = try PluginManifest.parse(bytes, folder: folder.path, searchPath: "/usr/bin:/bin")
            Issue.record("\(name).yaml was read although it is broken")
        } catch {
            guard case .invalidManifest(let problems) = error else { throw error }
            #expect(problems.map { "\($0.line):\($0.column): \($0.message)" } == expected)
        }
    }

    @Test func theDemoManifestDeclaresEveryKind() throws {
        let folder = SettingsFixtures.profiles.appendingPathComponent("plugins/demo").path
        let manifest = try PluginManifest.load(folder: folder, searchPath: nil)
        let all = try #require(manifest.commands.first { $0.name == "all" }?.settings)
        #expect(all["label"] == SettingDeclaration(.string(maxLength: 5)))
        #expect(all["count"] == SettingDeclaration(.int(min: 1, max: 10)))
        #expect(all["level"] == SettingDeclaration(.number(min: 0, max: 1)))
        #expect(all["flag"] == SettingDeclaration(.bool))
        #expect(all["mode"] == SettingDeclaration(.choice(["fast", "slow"])))
        #expect(all["extra"] == SettingDeclaration(.any))
        guard case let .words(list, maxLength)? = all["chord"]?.kind else {
            Issue.record("chord is not a words setting")
            return
        }
        #expect(maxLength == nil && list.files == ["words.txt"] && list.characters && list.separators == [" ", "+"])
        #expect(list.spelled == ["alpha", "Beta", "gamma"], "first fields of lines; comments and blank lines skipped")
        #expect(manifest.commands.first { $0.name == "combo" }?.settings?["chord"]?.required == true)
        #expect(manifest.commands.first { $0.name == "none" }?.settings == [:])
        #expect(manifest.commands.first { $0.name == "free" }?.settings == nil, "no settings: key, nothing declared")
    }

    @Test func wordsSplitAtSeparatorsWithTheirOffsetsInScalars() {
        let list = WordList(files: [], spelled: ["ctrl", "t"], separators: [" ", "+"], characters: false)
        let words = list.split("é+ctrl  ++t").map { "\($0.word)@\($0.offset)" }
        #expect(words == ["é@0", "ctrl@2", "t@10"])
        #expect(list.contains("CTRL") && !list.contains("é"))
        #expect(WordList(files: [], spelled: [], separators: [" "], characters: true).contains("é"))
    }

    @Test(arguments: SettingsFixtures.names(in: SettingsFixtures.profiles))
    func profileSettingsGiveExactlyTheExpectedProblems(_ name: String) throws {
        let plugins = PluginCatalog.scan(folders: [SettingsFixtures.profiles.appendingPathComponent("plugins").path],
                                         searchPath: nil)
        #expect(plugins.problems.isEmpty && plugins.manifests.map(\.id) == ["demo"])
        let expected = try SettingsFixtures.lines(SettingsFixtures.profiles.appendingPathComponent("\(name).expected"))
        let checked = try #require(ProfileCheck.check(paths: [SettingsFixtures.profiles.appendingPathComponent("\(name).yaml").path]).first)
        #expect(checked.problems.isEmpty, "a settings problem is not a problem of the profile itself: it still loads")
        let problems = plugins.settingsProblems(of: checked)  // the public way, as a tool outside the package asks
        let prefix = SettingsFixtures.profiles.path + "/"
        #expect(problems.map { $0.description.replacingOccurrences(of: prefix, with: "") } == expected)
    }

    @Test func aFolderScanCarriesTheSitesTheHostChecks() throws {
        let plugins = PluginCatalog.scan(folders: [SettingsFixtures.profiles.appendingPathComponent("plugins").path],
                                         searchPath: nil)
        let catalog = try ProfileFolder(path: SettingsFixtures.profiles.path).scan()
        #expect(catalog.problems.isEmpty && catalog.profiles.count == 2)
        let expected = try SettingsFixtures.names(in: SettingsFixtures.profiles).flatMap { name in
            try SettingsFixtures.lines(SettingsFixtures.profiles.appendingPathComponent("\(name).expected"))
                .map { SettingsFixtures.profiles.path + "/" + $0 }
        }
        #expect(plugins.settingsProblems(in: catalog).map(\.description) == expected, "in file order, then by position")
    }

    /// The keys plugin's own manifest: a mistyped modifier is found at its column with the
    /// right name suggested, and every alias the chord parser knows is a word of `keys`.
    @Test func theKeysManifestKnowsItsKeyNames() throws {
        let plugins = PluginCatalog.scan(folders: [SettingsFixtures.repository.appendingPathComponent("plugins").path],
                                         searchPath: "/usr/bin:/bin")
        let keys = try #require(plugins.manifest(id: "keys"))
        guard case let .words(list, _)? = keys.commands.first(where: { $0.name == "press" })?.settings?["keys"]?.kind else {
            Issue.record("press has no words setting keys")
            return
        }
        for word in ["ctrl", "super", "media_play", "XF86AudioPlay", "control_l", "é", "F5"] {
            #expect(list.contains(Substring(word)), "\(word)")
        }
        let profile = "pages:\n  - buttons:\n      0: {name: Copy, action: {plugin: keys, command: press, settings: {keys: \"ctlr+c\"}}}\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-settings-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("copy.yaml")
        try Data(profile.utf8).write(to: file)
        let checked = try #require(ProfileCheck.check(paths: [file.path]).first)
        let problems = plugins.settingsProblems(checked.settingsSites).map(\.description)
        #expect(problems == ["\(file.path):3:80: unknown name 'ctlr' in setting 'keys' of keys press; did you mean 'ctrl'? "
                             + "(the names are those of keysyms.txt, aliases.txt in the plugin's folder)"])
    }
}
