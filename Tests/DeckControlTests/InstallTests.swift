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

        let install = try Self.make(["install-files", "PREFIX=\(prefix.path)", "BUILT=\(BuiltProducts.directory.path)"])
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.contains("systemctl --user enable --now deckd"))
        // The web app (Apps/web but its tests) goes to PREFIX/share/deckd/web, where deckd looks.
        let web = Self.files(under: Self.repository + "/Apps/web").filter { !$0.hasPrefix("test/") }
            .map { "share/deckd/web/" + $0 }
        #expect(Self.files(under: prefix.path) == (["bin/deckctl", "bin/deckd", "bin/keep-me",
                                                    "share/bash-completion/completions/deckctl",
                                                    "share/systemd/user/deckd.service"] + web).sorted())
        for binary in ["deckd", "deckctl"] {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix.path)/bin/\(binary)"))
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

        let uninstall = try Self.make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(uninstall.status == 0, "\(uninstall.err)")
        #expect(Self.files(under: prefix.path) == ["bin/keep-me"])
    }

    @Test func installFilesWithoutBinariesSaysWhatToRun() throws {
        let prefix = try TemporaryDirectory(prefix: "prefix")
        let empty = try TemporaryDirectory(prefix: "nobinaries")
        let install = try Self.make(["install-files", "PREFIX=\(prefix.path)", "BUILT=\(empty.path)"])
        #expect(install.status != 0)
        #expect(install.err.contains("no deckd and deckctl in BUILT='\(empty.path)'; run make install"))
        #expect(Self.files(under: prefix.path).isEmpty)
    }
}
