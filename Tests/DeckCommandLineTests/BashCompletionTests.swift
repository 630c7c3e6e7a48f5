@testable import DeckCommandLine
import DeckTestSupport
import Foundation
import Testing

/// Runs the generated script in a real bash, as bash runs it on Tab.
@Suite("Bash completion from the declarations")
struct BashCompletionTests {
    typealias T = SampleTool

    /// What bash offers for `words` with the cursor on the last word.
    static func complete(_ words: [String], in folder: String? = nil) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deck-completion-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("tool.bash")
        try BashCompletion.script(for: T.root).write(to: script, atomically: true, encoding: .utf8)
        let quoted = words.map(BashCompletion.quoted).joined(separator: " ")
        let program = """
            tool() { local IFS='|'; echo "called with:$*"; printf '%s\\n' default 'my desk' streaming; }
            source \(BashCompletion.quoted(script.path))
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _tool
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "-c", program]
        process.currentDirectoryURL = folder.map { URL(fileURLWithPath: $0) } ?? directory
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.reap()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func theScriptIsValidBash() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("deck-completion-\(UUID().uuidString).bash")
        try BashCompletion.script(for: T.root).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n", file.path]
        try process.run()
        process.reap()
        #expect(process.terminationStatus == 0)
    }

    @Test func commandsAndGlobalOptions() throws {
        #expect(try Self.complete(["tool", "s"]) == ["status", "show", "set"])
        #expect(try Self.complete(["tool", "--"]) == ["--control", "--json", "--help"])
        #expect(try Self.complete(["tool", "--json", "--control", "/x", "ch"]) == ["check"])
        #expect(try Self.complete(["tool", "help", "ex"]) == ["export"])
    }

    @Test func hiddenCommandsAreNotOffered() throws {
        #expect(try Self.complete(["tool", "se"]) == ["set"])
    }

    @Test func commandOptionsIncludeTheGlobalOnes() throws {
        #expect(try Self.complete(["tool", "press", "0", "1", "--"]) == ["--down", "--up", "--control", "--json", "--help"])
        #expect(try Self.complete(["tool", "export", "-"]) == ["--profile", "--output", "--control", "--json", "-o", "--help"])
    }

    @Test func optionValues() throws {
        #expect(try Self.complete(["tool", "status", "--level", "w"]) == ["warning"])
        #expect(try Self.complete(["tool", "status", "--level", "=", "d"]) == ["debug"])
        #expect(try Self.complete(["tool", "set", "0", "1", "--name", ""]) == [])
    }

    @Test func filesForFileArgumentsAndOptions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deck-files-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["desk.yaml", "desk copy.yaml", "other.txt"] {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
        }
        #expect(try Self.complete(["tool", "check", "de"], in: folder.path).sorted() == ["desk copy.yaml", "desk.yaml"])
        #expect(try Self.complete(["tool", "check", "a.yaml", "o"], in: folder.path) == ["other.txt"])
        #expect(try Self.complete(["tool", "export", "-o", "o"], in: folder.path) == ["other.txt"])
        #expect(try Self.complete(["tool", "--control", "o"], in: folder.path) == ["other.txt"])
    }

    @Test func namesFromTheToolItselfWithTheGlobalOptionsGiven() throws {
        let offered = try Self.complete(["tool", "--control", "/run/x.sock", "export", "--profile", ""])
        #expect(offered == ["called with:--control|/run/x.sock|profiles|--names", "default", "my desk", "streaming"])
        #expect(try Self.complete(["tool", "export", "--profile", "my"]) == ["my desk"])
    }

    @Test func subcommandNames() throws {
        #expect(try Self.complete(["tool", "completion", ""]) == ["bash"])
    }
}
