import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Issue 18 §3: a good save after a 200,000-key file went live only once the
/// huge file was parsed (65 s). Now the newer save supersedes the scan in
/// progress: the huge file's layout (valid and small — its 600,000 keys are
/// under an ignored `x-` key — but about a second to parse in a debug build)
/// never goes live, the good one does, and without waiting for the parse.
///
/// What made this racy before: the test saved the good file once the scan
/// had *started*, and the scan could still open the file after that save, so
/// it read the good bytes, nothing was left to supersede (seen twice under
/// the full suite); and a 10 MB file took seconds to *read* in a debug build
/// (the buffer doubled only to see the end), where a scan cannot give up, so
/// with the good file renamed into place the good save waited for the read
/// every time. Now the test saves once the huge bytes are read and parsing
/// (the debug line `scan N parses default.yaml (SIZE bytes)`), and the first
/// event of the newer save supersedes the scan at once (no settle time): the
/// only thing left to win the race is a second of parsing against a few
/// milliseconds of inotify and the event loop.
@Suite("A newer save supersedes a parse in progress")
struct SupersededReloadTests {
    static func manyKeys(_ count: Int) -> String {
        "name: default\npages:\n  - buttons:\n      0: {name: Huge, action: {run: \"true\"}}\nx-bulk:\n"
            + (0..<count).map { "  k\($0): \($0)\n" }.joined()
    }

    @Test(arguments: [EditorSave.truncateAndWrite, .hiddenTempRenamedOver, .vimBackupRename])
    func aGoodSaveAfterAHugeOneGoesLiveAndTheHugeOneNever(_ style: EditorSave) throws {
        let host = try startedHost(arguments: ["--log-level", "debug"])
        let device = try host.device()
        let huge = Self.manyKeys(600_000)
        try style.save(huge, as: "default.yaml", in: host.layouts)
        // Read, so the good save cannot be what this scan parses.
        try #require(host.waitForLog("parses default.yaml (\(huge.utf8.count) bytes)", timeout: .seconds(60)))
        let good = deskYAML.replacingOccurrences(of: "name: Build", with: "name: Good")
        try style.save(good, as: "default.yaml", in: host.layouts)
        #expect(host.waitForLog("a newer save of the layouts folder superseded scan", timeout: .seconds(60)))
        // Every layout broadcast up to the good one, and after it: none is the huge one.
        let seen = try device.layouts(until: "Good", timeout: .seconds(60))
        #expect(!seen.contains { $0.button(page: 0, index: 0)?.name == "Huge" })
        try host.expectSettled(device, on: "Good")
        #expect(!host.log.contains("reloaded 'default' from default.yaml (revision 3)"), "one reload, the good one")
    }

    /// The first write of a newer save supersedes the parse at once, not once
    /// the save settles: here the good file stays open (its scan waits for the
    /// close), and the huge scan has already given up.
    @Test func theFirstWriteOfANewerSaveSupersedesAtOnce() throws {
        let host = try startedHost(arguments: ["--log-level", "debug"])
        let device = try host.device()
        let huge = Self.manyKeys(600_000)
        try EditorSave.truncateAndWrite.save(huge, as: "default.yaml", in: host.layouts)
        try #require(host.waitForLog("parses default.yaml (\(huge.utf8.count) bytes)", timeout: .seconds(60)))
        let good = deskYAML.replacingOccurrences(of: "name: Build", with: "name: Good")
        let fd = try EditorSave.open(host.layouts + "/default.yaml", O_WRONLY | O_TRUNC)
        try EditorSave.write(fd, Array(good.utf8)[...])
        let superseded = host.waitForLog("a newer save of the layouts folder superseded scan", timeout: .seconds(60))
        close(fd)
        #expect(superseded)
        let seen = try device.layouts(until: "Good", timeout: .seconds(60))
        #expect(!seen.contains { $0.button(page: 0, index: 0)?.name == "Huge" })
        try host.expectSettled(device, on: "Good")
    }
}
