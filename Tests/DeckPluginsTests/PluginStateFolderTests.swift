@testable import DeckPlugins
import DeckTestSupport
import Glibc
import Testing

/// Each plugin's state folder: made private before a start, named in the
/// environment, emptied by `--reset`.
@Suite struct PluginStateFolderTests {
    @Test func theFolderIsMadePrivateWithItsParentAndNamedInTheEnvironment() throws {
        let root = try TemporaryDirectory(prefix: "state")
        let folder = root.path + "/plugins/keys"
        try PluginStateFolder.prepare(folder)
        for path in [root.path + "/plugins", folder] {
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "\(path)")
        }
        chmod(folder, 0o755)
        try PluginStateFolder.prepare(folder)  // again, as before every start: narrowed back
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        setenv(PluginStateFolder.variable, "/somewhere/else", 1)
        defer { unsetenv(PluginStateFolder.variable) }
        let environment = PluginStateFolder.environment(naming: folder)
        #expect(environment.filter { $0.hasPrefix("DECK_PLUGIN_STATE=") } == ["DECK_PLUGIN_STATE=\(folder)"])
        #expect(environment.contains { $0.hasPrefix("PATH=") })
    }

    @Test func emptyingRemovesEverythingInsideButTheFolder() throws {
        let root = try TemporaryDirectory(prefix: "state")
        let folder = root.path + "/keys"
        try PluginStateFolder.prepare(folder)
        #expect(mkdir(folder + "/inner", 0o700) == 0)
        for path in [folder + "/portal-restore-token", folder + "/inner/more"] {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        #expect(PluginStateFolder.empty(folder) == nil)
        #expect(access(folder, F_OK) == 0)
        #expect(access(folder + "/portal-restore-token", F_OK) != 0)
        #expect(access(folder + "/inner", F_OK) != 0)
        #expect(PluginStateFolder.empty(root.path + "/never-made") == nil, "a missing folder is already empty")
    }

    @Test func aRelativeRootIsNamedToThePluginAbsoluteForItRunsInItsOwnFolder() throws {
        var policy = PluginPolicy()
        policy.stateRoot = ".state/plugins"
        let folder = try #require(policy.stateFolder(for: "keys"))
        let cwd = try #require(getcwd(nil, 0))
        defer { free(cwd) }
        #expect(folder == String(cString: cwd) + "/.state/plugins/keys")
        policy.stateRoot = "/var/lib/deck/plugins"
        #expect(policy.stateFolder(for: "keys") == "/var/lib/deck/plugins/keys")
        policy.stateRoot = nil
        #expect(policy.stateFolder(for: "keys") == nil)
    }

    @Test func aFolderThatCannotBeMadeFailsTheStartWithTheReason() {
        #expect(throws: DeckPluginsError.self) { try PluginStateFolder.prepare("/proc/no-such/plugins/keys") }
    }
}
