import DeckPluginKit
@testable import DeckPlugins
import DeckTestSupport
import DeckTransport
import Foundation
import Glibc
import Testing

/// What one loop turn costs the host when a plugin writes without end.
@Suite struct ReadBudgetTests {
    /// Counts the log lines a supervisor reports.
    final class Counter: PluginSupervisorDelegate {
        var logs = 0
        func pluginLog(_ level: PluginLogLevel, _ message: String) { logs += 1 }
        func plugin(_ supervisor: PluginSupervisor, setTitle title: String?, page: Int, index: Int) {}
        func plugin(_ supervisor: PluginSupervisor, face message: PluginMessage, for buttons: [PluginButton]) {}
        func pluginStatusChanged(_ supervisor: PluginSupervisor) {}
        func pluginProcessEnded(_ supervisor: PluginSupervisor) {}
        func pluginStopped(_ supervisor: PluginSupervisor) {}
    }

    /// Every line a plugin writes is parsed on the loop: one turn must take a
    /// few hundred at most, however much is waiting (a turn that parsed 1 MiB
    /// of lines kept every device's ping waiting half a second).
    @Test func oneTurnReadsAtMostTheBudgetOfAFloodingPlugin() throws {
        let folder = try TemporaryDirectory(prefix: "budget")
        try TestPlugin.sh("flood", "exec sleep 100").install(in: folder.path)
        let manifest = try #require(PluginManifest.read(folder: folder.path + "/flood", searchPath: nil).manifest)
        var policy = PluginPolicy()
        policy.logBudget = 1 << 30  // every line it handles is logged, so counted
        let loop = try EventLoop()
        let supervisor = PluginSupervisor(manifest: manifest, loop: loop, policy: policy,
                                          hello: PluginHello(hostName: "deckd", hostVersion: "test", plugin: "flood"))
        let counter = Counter()
        supervisor.delegate = counter
        // The plugin's output: a pipe holding 512 KiB of valid lines.
        var output: [Int32] = [-1, -1]
        #expect(pipe(&output) == 0)
        for fd in output { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's module does not export
        _ = fcntl(output[1], setPipeSize, 1 << 20)
        let line = Array(#"{"type":"log","message":"x"}"#.utf8) + [0x0A]
        let lines = (512 << 10) / line.count
        let bytes = Array([[UInt8]](repeating: line, count: lines).joined())
        #expect(bytes.withUnsafeBytes { write(output[1], $0.baseAddress, $0.count) } == bytes.count, "the pipe holds it all")
        let child = try SpawnedChild.spawn(["/bin/sleep", "100"])
        supervisor.process = PluginProcess(pid: child.pid, input: -1, output: output[0], errors: -1, exitDescriptor: -1)
        supervisor.readBuffer = [UInt8](repeating: 0, count: policy.readBudget)
        defer {
            kill(child.pid, SIGKILL)
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
            for fd in [output[0], output[1], child.output, child.errors, child.exitDescriptor] where fd >= 0 { close(fd) }
            supervisor.process = nil
        }
        supervisor.readOutput()
        let perTurn = (16 << 10) / line.count + 1  // 16 KiB of lines
        #expect(counter.logs > 0 && counter.logs <= perTurn, "one turn handled \(counter.logs) of \(lines) lines")
        supervisor.readOutput()
        #expect(counter.logs <= 2 * perTurn, "the next turn takes the next share")
    }
}
