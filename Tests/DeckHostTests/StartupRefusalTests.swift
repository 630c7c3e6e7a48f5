import DeckTestSupport
import Foundation
import Testing

/// deckd refusing to start (CLI.md): one sentence on standard error, the exit
/// status CLI.md gives, and nothing changed on disk or for a host already running.
@Suite("Start-up refusals end to end")
struct StartupRefusalTests {
    /// A state folder that cannot be created: `/proc` says ENOENT for any new
    /// folder even though its parent exists (which once sent the folder
    /// creation into endless recursion and a crash); under a regular file it is ENOTDIR.
    @Test(arguments: ["/proc/deck-state-test", "FILE/state"])
    func aStateFolderThatCannotBeCreatedIsOneSentenceAndExit1(_ pattern: String) throws {
        let host = try HostProcess(files: ["default.yaml": deskYAML])
        let file = host.root.path + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let state = pattern.replacingOccurrences(of: "FILE", with: file)
        #expect(try host.runToExit(extra: ["--state", state]) == 1)
        let lines = host.log.split(separator: "\n")
        #expect(lines.count == 1, "\(host.log.prefix(600))")
        #expect(lines.first?.contains("error cannot use the state folder \(state): could not create folder ") == true)
        #expect(lines.first?.hasSuffix("; pass --state a folder deckd can create and write") == true)
        #expect(!FileManager.default.fileExists(atPath: host.control))
    }
}
