import DeckPlugins
import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

/// Finding plugins in plugins folders.
@Suite struct CatalogTests {
    private func write(_ text: String, to path: URL) throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: path)
    }

    private func plugin(_ folder: URL, _ name: String, manifest: String) throws {
        let program = folder.appendingPathComponent(name).appendingPathComponent("run")
        try write("#!/bin/sh\n", to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        try write(manifest, to: folder.appendingPathComponent(name).appendingPathComponent("plugin.yaml"))
    }

    @Test func brokenManifestsDoNotHideTheOthers() throws {
        let first = try TemporaryDirectory(prefix: "catalog")
        let second = try TemporaryDirectory(prefix: "catalog")
        try plugin(first.url, "a-counter", manifest: "id: counter\nexec: [./run]\n")
        try plugin(first.url, "b-broken", manifest: "id: broken\nexec: ./run\n")
        try plugin(first.url, "c-nameless", manifest: "exec: [./run]\n")
        try plugin(first.url, ".hidden", manifest: "id: hidden\nexec: [./run]\n")
        try FileManager.default.createDirectory(at: first.appending("not-a-plugin"), withIntermediateDirectories: true)
        try write("stray file", to: first.appending("README"))
        try plugin(second.url, "counter-again", manifest: "name: Other\nid: counter\nexec: [./run]\n")
        try plugin(second.url, "hold", manifest: "id: hold\nexec: [./run]\n")

        let catalog = PluginCatalog.scan(folders: [first.path, second.path, first.path + "/missing"], searchPath: nil)
        #expect(catalog.manifests.map(\.id) == ["counter", "hold"])
        #expect(catalog.manifest(id: "counter")?.folder == first.path + "/a-counter", "the first folder wins")
        #expect(catalog.problems.map(\.description) == [
            first.path + "/b-broken/plugin.yaml:2:7: exec must be a list of the program and its arguments (argv form, no shell), not a string; write exec: [./run]",
            first.path + "/c-nameless/plugin.yaml:1:1: a plugin manifest needs id: (the name profiles use in {plugin: ID, command: …})",
            second.path + "/counter-again/plugin.yaml:2:5: plugin id 'counter' is already used by " + first.path
                + "/a-counter/plugin.yaml; give one of them another id",
        ].sorted())
        #expect(catalog.unavailable.map(\.id) == ["broken", "c-nameless"], "a broken plugin is listed under its id, else its folder")
        #expect(catalog.unavailability(id: "broken")?.reason.hasSuffix("write exec: [./run]") == true)
        #expect(catalog.unavailability(id: "counter") == nil, "the first counter works")
    }

    @Test func anUnreadableFolderIsAProblem() throws {
        let folder = try TemporaryDirectory(prefix: "catalog")
        try write("not a folder", to: folder.appending("plugins"))
        let catalog = PluginCatalog.scan(folders: [folder.path + "/plugins"], searchPath: nil)
        #expect(catalog.manifests.isEmpty)
        #expect(catalog.problems.map(\.message) == ["cannot read the plugins folder: Not a directory"])
    }

    /// The repository's example plugins load as they are.
    @Test func theRepositoryPlugins() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = PluginCatalog.scan(folders: [repository.appendingPathComponent("plugins").path],
                                         searchPath: ProcessInfo.processInfo.environment["PATH"])
        #expect(catalog.problems == [])
        // Every folder of plugins/ with a manifest (first-party plugins join it), each under its folder's name.
        let folders = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("plugins").path)
            .filter { FileManager.default.fileExists(atPath: repository.appendingPathComponent("plugins/\($0)/plugin.yaml").path) }
        #expect(catalog.manifests.map(\.id) == folders.sorted())
        #expect(folders.contains("counter") && folders.contains("hold"))
        #expect(catalog.manifest(id: "counter")?.commands.map(\.name) == ["increment", "reset"])
        #expect(catalog.manifest(id: "hold")?.commands.map(\.name) == ["hold"])
        #expect(catalog.manifest(id: "keys")?.commands.map(\.name) == ["press", "type"])
        #expect(catalog.manifest(id: "keys")?.commands.first?.hold == true)
    }
}
