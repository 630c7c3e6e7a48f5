import DeckProtocol
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

    /// A second deckd on the first one's control socket, state folder or TCP
    /// port stops before it writes anything (CLI.md: a clear message, no
    /// stolen socket); the first host and its clients notice nothing.
    @Test func aSecondHostIsRefusedBeforeItChangesAnything() throws {
        let host = try startedHost()
        let control = try host.controlClient()
        guard case .paired = try control.request(.pair(name: "tablet")) else { Issue.record("no token"); return }
        let device = try host.device("phone")
        let before = try FolderPicture(host.state)
        let socket = try FileManager.default.attributesOfItem(atPath: host.control)[.systemFileNumber] as? Int

        // Each refused host has its own folders; only the part named is shared.
        let cases: [(extra: [String], message: String)] = [
            (["--control", host.control], "another host is listening on \(host.control); stop it first"),
            (["--state", host.state], "the state folder \(host.state) is in use by another deckd"),
            (["--listen", "127.0.0.1:\(host.port)"], "127.0.0.1:\(host.port) is already in use by another program"),
        ]
        for (extra, message) in cases {
            let other = try HostProcess(files: ["default.yaml": deskYAML])
            #expect(try other.runToExit(extra: extra) == 1)
            let lines = other.log.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(" error " + message), "\(other.log.prefix(800))")
            // Nothing of its own was written either, and its own socket is gone again.
            #expect(!FileManager.default.fileExists(atPath: other.state), "\(extra)")
            #expect(!FileManager.default.fileExists(atPath: other.control), "\(extra)")
        }

        #expect(try FolderPicture(host.state) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: host.control)[.systemFileNumber] as? Int == socket)
        #expect(device.staysQuiet())
        #expect(try device.request(.ping).type == "pong")
        #expect(try control.status().clients.map(\.name).sorted() == ["phone", "test"])
        #expect(try host.controlClient("late").status().revision == device.welcome?.revision)
        #expect(try host.device("late").request(.ping).type == "pong")
    }
}

/// Every file under a folder with its size, inode and modification time, to
/// show that nothing was written, replaced or touched.
private struct FolderPicture: Equatable {
    let files: [String: [String]]

    init(_ root: String) throws {
        var files: [String: [String]] = [:]
        let manager = FileManager.default
        for case let path as String in manager.enumerator(atPath: root) ?? FileManager.DirectoryEnumerator() {
            let info = try manager.attributesOfItem(atPath: root + "/" + path)
            files[path] = [info[.size], info[.systemFileNumber], info[.modificationDate]].map { "\($0 ?? "-")" }
        }
        self.files = files
    }
}

/// The default layouts folder is made when missing (a fresh install started
/// by systemd serves an empty layout instead of exiting 78); a folder given
/// with `--layouts` is not, since a missing one there is more likely a typo.
@Suite("The layouts folder at start")
struct LayoutsFolderTests {
    @Test func theDefaultFolderIsCreatedAndAGivenOneIsNot() throws {
        let root = try TemporaryDirectory(prefix: "xdg")
        let run = root.path + "/run"
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let log = root.path + "/deckd.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        func deckd(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try BuiltProducts.path("deckd"))
            process.arguments = ["--listen", "127.0.0.1:0", "--no-web", "--plugins", root.path + "/plugins"] + arguments
            process.environment = ["HOME": root.path, "XDG_CONFIG_HOME": root.path + "/config",
                                   "XDG_STATE_HOME": root.path + "/state", "XDG_RUNTIME_DIR": run, "PATH": "/usr/bin:/bin"]
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            handle.seekToEndOfFile()
            process.standardError = handle
            process.standardOutput = handle
            try process.run()
            return process
        }
        func text() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        let given = root.path + "/typo/layouts"
        let refused = try deckd(["--layouts", given])
        refused.reap()
        #expect(refused.terminationStatus == 78)
        #expect(text().contains("the layouts folder \(given) does not exist or is not a folder"))
        #expect(!FileManager.default.fileExists(atPath: given))

        let folder = root.path + "/config/deckd/layouts"
        let host = try deckd([])
        defer { host.terminate(); host.reap() }
        let deadline = ContinuousClock.now + .seconds(20)
        while !text().contains("deckd ready on ") && host.isRunning && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(text().contains("deckd ready on "), "\(text())")
        #expect(text().contains("created the layouts folder \(folder); put profiles (.yaml) in it"))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
    }
}
