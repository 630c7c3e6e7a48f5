import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Issue 17 §2: plugins follow their files on `reload` (and SIGHUP).
@Suite("Plugins follow their files")
struct PluginReloadTests {
    static func waitForPIDs(_ host: HostProcess, count: Int) -> [Int32] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let pids = host.pluginPIDs("recorder")
            if pids.count >= count { return pids }
            usleep(50_000)
        }
        return host.pluginPIDs("recorder")
    }

    @Test func aChangedProgramIsRestartedByReloadAndAnUnchangedOneIsNot() throws {
        let host = try HostProcess.withRecorder()
        try host.start()
        let first = Self.waitForPIDs(host, count: 1)
        #expect(first.count == 1)
        let control = try host.controlClient()
        try control.expectOK(.reload)
        #expect(host.pluginPIDs("recorder") == first, "an unchanged plugin keeps running")
        // A new program in place, as an editor or a build writes it.
        let program = host.root.path + "/plugins/recorder/plugin"
        try Data((recorderPlugin + "\n# changed\n").utf8).write(to: URL(fileURLWithPath: program + ".new"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program + ".new")
        #expect(rename(program + ".new", program) == 0)
        try control.expectOK(.reload)
        let after = Self.waitForPIDs(host, count: 2)
        #expect(after.count == 2 && after.first == first.first, "\(after)")
    }
}
