import DeckTestSupport
import Foundation
import Testing

/// `make install-files` and `make uninstall` into a temporary PREFIX, with
/// the binaries this test run was built with (`make install` is the same
/// after a release build).
@Suite("make install and make uninstall")
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func make(_ arguments: [String]) throws -> ProcessRun {
        try ProcessRun.run("/usr/bin/env", ["make", "--no-print-directory", "-C", repository] + arguments)
    }

    /// Every file (not folder) under `folder`, relative to it, sorted.
    static func files(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let item = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + item, isDirectory: &isFolder), !isFolder.boolValue {
                found.append(item)
            }
        }
        return found.sorted()
    }

    @Test func installsTheFourFilesAndTheWebAppAndUninstallRemovesExactlyThem() throws {
        let prefix = try TemporaryDirectory(prefix: "prefix")
        let unrelated = prefix.appending("bin/keep-me").path
        try FileManager.default.createDirectory(atPath: prefix.path + "/bin", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: unrelated, contents: Data("mine".utf8)))

        let install = try Self.make(["install-files", "PREFIX=\(prefix.path)", "BUILT=\(BuiltProducts.directory.path)",
                                     "UNIT_PATHS=echo \(prefix.path)/share/systemd/user"])
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.contains("systemctl --user enable --now deckd"))
        #expect(install.out.contains("the example plugins in \(prefix.path)/share/deckd/plugins"))
        // The web app (Apps/web but its tests) goes to PREFIX/share/deckd/web, where deckd looks.
        let web = Self.files(under: Self.repository + "/Apps/web").filter { !$0.hasPrefix("test/") }
            .map { "share/deckd/web/" + $0 }
        #expect(Self.files(under: prefix.path) == (["bin/deckctl", "bin/deckd", "bin/keep-me",
                                                    "share/bash-completion/completions/deckctl",
                                                    "share/deckd/plugins/counter/counter",
                                                    "share/deckd/plugins/counter/deck-plugin-counter",
                                                    "share/deckd/plugins/counter/plugin.yaml",
                                                    "share/deckd/plugins/hold/hold.py",
                                                    "share/deckd/plugins/hold/plugin.yaml",
                                                    "share/deckd/plugins/keys/aliases.txt",
                                                    "share/deckd/plugins/keys/deck-plugin-keys",
                                                    "share/deckd/plugins/keys/keys",
                                                    "share/deckd/plugins/keys/keysyms.txt",
                                                    "share/deckd/plugins/keys/plugin.yaml",
                                                    "share/deckd/plugins/media/deck-plugin-media",
                                                    "share/deckd/plugins/media/media",
                                                    "share/deckd/plugins/media/plugin.yaml",
                                                    "share/deckd/plugins/obs/deck-plugin-obs",
                                                    "share/deckd/plugins/obs/obs",
                                                    "share/deckd/plugins/obs/plugin.yaml",
                                                    "share/deckd/plugins/sound/deck-plugin-sound",
                                                    "share/deckd/plugins/sound/plugin.yaml",
                                                    "share/deckd/plugins/sound/sound",
                                                    "share/systemd/user/deckd.service"] + web).sorted())
        for binary in ["bin/deckd", "bin/deckctl", "share/deckd/plugins/counter/deck-plugin-counter",
                       "share/deckd/plugins/keys/deck-plugin-keys",
                       "share/deckd/plugins/media/deck-plugin-media",
                       "share/deckd/plugins/obs/deck-plugin-obs",
                       "share/deckd/plugins/sound/deck-plugin-sound"] {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix.path)/\(binary)"))
            // Stripped: no symbol table left (issue 17: a static deckctl was 76 MB).
            let sections = try ProcessRun.run("/usr/bin/env", ["readelf", "-S", "\(prefix.path)/\(binary)"])
            #expect(sections.status == 0 && !sections.out.contains(".symtab"), "\(binary) is not stripped")
        }
        let completion = try String(contentsOfFile: prefix.path + "/share/bash-completion/completions/deckctl", encoding: .utf8)
        let generated = try ProcessRun.run(prefix.path + "/bin/deckctl", ["completion", "bash"])
        #expect(completion == generated.out && completion.contains("complete -F _deckctl deckctl"))

        let unit = try String(contentsOfFile: prefix.path + "/share/systemd/user/deckd.service", encoding: .utf8)
        let lines = unit.split(separator: "\n").map(String.init)
        #expect(lines.contains("ExecStart=\(prefix.path)/bin/deckd"))
        #expect(lines.contains("Restart=on-failure") && lines.contains("WantedBy=default.target"))
        #expect(!unit.contains("@BINDIR@"))
        let help = try ProcessRun.run(prefix.path + "/bin/deckd", ["--help"])
        #expect(help.status == 0 && help.out.hasPrefix("usage: deckd "))
        #expect(help.out.contains("PREFIX/share/deckd/plugins"))
        // The installed deckd serves the installed example plugins with their built programs.
        try Self.expectInstalledPluginsWork(prefix: prefix.path)

        let uninstall = try Self.make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(uninstall.status == 0, "\(uninstall.err)")
        #expect(Self.files(under: prefix.path) == ["bin/keep-me"])
    }

    /// `deckctl status` of the installed deckd (no --plugins) lists counter,
    /// hold and keys as running once their buttons are live (keys without a
    /// display: running, its button saying there is no keyboard back end).
    static func expectInstalledPluginsWork(prefix: String) throws {
        let home = try TemporaryDirectory(prefix: "home")
        let layouts = home.path + "/layouts"
        try FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try Data("""
            pages:
              - buttons:
                  0: {name: Count, action: {plugin: counter, command: increment}}
                  1: {name: Hold, action: {plugin: hold, command: hold}}
                  2: {name: Hi, action: {plugin: keys, command: type, settings: {text: hi}}}
            """.utf8).write(to: URL(fileURLWithPath: layouts + "/default.yaml"))
        let environment = ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_RUNTIME_DIR": home.path,
                           "PATH": "/usr/bin:/bin"]
        let socket = home.path + "/control.sock"
        let deckd = Process()
        deckd.executableURL = URL(fileURLWithPath: prefix + "/bin/deckd")
        // No web listener: the default port may be taken on the machine running the tests.
        deckd.arguments = ["--layouts", layouts, "--state", home.path + "/state", "--control", socket, "--no-tcp", "--no-web"]
        deckd.environment = environment
        let log = home.appending("deckd.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        deckd.standardError = try FileHandle(forWritingTo: log)
        try deckd.run()
        defer { deckd.terminate(); deckd.reap() }
        let deadline = ContinuousClock.now + .seconds(20)
        var running: [String] = []
        while ContinuousClock.now < deadline {
            let status = try ProcessRun.run(prefix + "/bin/deckctl", ["--control", socket, "--json", "status"])
            running = ["counter", "hold", "keys"].filter { status.out.contains(#"{"id":"\#($0)","state":"running""#) }
            if running.count == 3 { break }
            usleep(100_000)
        }
        #expect(running == ["counter", "hold", "keys"], "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// A PREFIX systemd does not search: the hint links the unit and starts
    /// it, and does not also say `enable --now` as if that would work.
    @Test func theHintForAnUnsearchedPrefixDoesNotSayEnableNow() throws {
        let prefix = try TemporaryDirectory(prefix: "prefix")
        let install = try Self.make(["install-files", "PREFIX=\(prefix.path)", "BUILT=\(BuiltProducts.directory.path)",
                                     "UNIT_PATHS=echo /usr/lib/systemd/user"])
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.contains("systemctl --user link \(prefix.path)/share/systemd/user/deckd.service"))
        #expect(install.out.contains("systemctl --user start deckd"))
        #expect(!install.out.contains("enable --now"))
        #expect(try Self.make(["uninstall", "PREFIX=\(prefix.path)"]).status == 0)
        #expect(Self.files(under: prefix.path).isEmpty)
    }

    @Test func installFilesWithoutBinariesSaysWhatToRun() throws {
        let prefix = try TemporaryDirectory(prefix: "prefix")
        let empty = try TemporaryDirectory(prefix: "nobinaries")
        let install = try Self.make(["install-files", "PREFIX=\(prefix.path)", "BUILT=\(empty.path)"])
        #expect(install.status != 0)
        #expect(install.err.contains("no deckd, deckctl and deck-plugin-counter in BUILT='\(empty.path)'; run make install"))
        #expect(Self.files(under: prefix.path).isEmpty)
    }
}
