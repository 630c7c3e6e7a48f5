import DeckTestSupport
import Foundation
import Testing

/// Issue 17 §2: `deckctl plugins` (state, pid, restarts, last exit,
/// problems) and `deckctl restart PLUGIN`, against a real deckd.
@Suite("deckctl plugins and restart")
struct PluginCommandsTests {
    @Test func pluginsListsAndRestartRestarts() throws {
        let host = try HostProcess(files: ["default.yaml": """
            pages:
              - buttons:
                  0: {name: Count, action: {plugin: titler, command: increment}}
            """])
        let folder = host.root.path + "/plugins/titler"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(ShowTitleTests.titler.utf8).write(to: URL(fileURLWithPath: folder + "/plugin"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/plugin")
        try Data("id: titler\nexec: [./plugin]\n".utf8).write(to: URL(fileURLWithPath: folder + "/plugin.yaml"))
        let broken = host.root.path + "/plugins/greeter"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("id: greeter\nexec: ./greet\n".utf8).write(to: URL(fileURLWithPath: broken + "/plugin.yaml"))
        try host.start()
        let deckctl = try BuiltProducts.path("deckctl")
        func plugins(until done: ([String]) -> Bool) throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(10)
            var lines: [String] = []
            while ContinuousClock.now < deadline {
                lines = try ProcessRun.run(deckctl, ["--control", host.control, "plugins"]).outLines
                if done(lines) { break }
                usleep(50_000)
            }
            return lines
        }
        let first = try plugins { $0.contains { $0.hasPrefix("titler   running") } }
        let running = try #require(first.first { $0.hasPrefix("titler ") }, "\(first)")
        #expect(running.contains("pid ") && running.contains("0 restarts"), "\(running)")
        #expect(first.contains { $0.hasPrefix("greeter  unavailable") }, "\(first)")
        #expect(first.contains("problems:"))
        #expect(first.contains { $0.contains("greeter/plugin.yaml:2:7: ") })

        let restart = try ProcessRun.run(deckctl, ["--control", host.control, "restart", "titler"])
        #expect(restart.status == 0 && restart.outLines == ["restarting plugin 'titler' (deckctl plugins shows when it runs again)"])
        let again = try plugins { $0.contains { $0.hasPrefix("titler   running") && $0.contains("1 restart ") } }
        let line = try #require(again.first { $0.hasPrefix("titler ") })
        #expect(line.contains("1 restart ") && line.contains("last: exited with status 0") && line != running, "\(again)")

        let unknown = try ProcessRun.run(deckctl, ["--control", host.control, "restart", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.errLines.first?.hasPrefix("notFound: no plugin 'nope' is installed (installed: titler)") == true,
                "\(unknown.errLines)")
    }
}
