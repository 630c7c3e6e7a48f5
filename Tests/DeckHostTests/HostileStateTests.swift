import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Glibc
import Testing

/// Damaged state that used to trap or hang deckd (issue 18 §3), end to end:
/// a real deckd, its real state folder.
@Suite("Hostile state folders")
struct HostileStateTests {
    /// Rewrites generation 1's revision with `gzip`, as another tool would.
    static func setRevision(_ revision: String, in path: String) throws {
        let script = "zcat \"$0\" | sed 's/\"revision\":[0-9-]*/\"revision\":\(revision)/' | gzip -c > \"$0.new\" && mv \"$0.new\" \"$0\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, path]
        try process.run()
        process.reap()
        try #require(process.terminationStatus == 0)
    }

    @Test(arguments: ["9223372036854775806", "9223372036854775807", "-5"])
    func aSnapshotWithAnUntrustedRevisionIsDamageNotATrap(_ revision: String) throws {
        let host = try startedHost()
        #expect(try host.stop() == 0)
        let path = host.state + "/snapshots/default/0000000001.json.gz"
        try Self.setRevision(revision, in: path)
        try host.start()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        let edited = try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 8, button: terminal))
        #expect(edited != nil && edited! > 0 && edited! < 100)
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt"))
        #expect(host.log.contains("its revision \(revision)"))
    }

    @Test func aFIFOWhereTheNewestSnapshotShouldBeDoesNotHangTheStart() throws {
        let host = try startedHost()
        #expect(try host.stop() == 0)
        let path = host.state + "/snapshots/default/0000000002.json.gz"
        try #require(mkfifo(path, 0o600) == 0)
        defer { Blocking.unblockFIFO(path) }
        try host.start(timeout: .seconds(20))
        #expect(host.log.contains("it is not a regular file"))
        #expect(try host.device().request(.ping).type == "pong")
    }
}
