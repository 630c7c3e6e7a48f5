import DeckControl
import DeckProfiles
import DeckTestSupport
import Foundation
import Synchronization
import Testing

/// What a deckctl run printed, collected in memory.
final class CapturedConsole: Sendable {
    private let lines = Mutex<(out: [String], err: [String])>(([], []))
    private let interactive: Bool

    /// `interactive`: as if a person read standard output at a terminal.
    init(interactive: Bool = false) { self.interactive = interactive }

    var console: Console {
        Console(out: { line in self.lines.withLock { $0.out.append(line) } },
                err: { line in self.lines.withLock { $0.err.append(line) } }, interactive: interactive)
    }

    var out: [String] { lines.withLock { $0.out } }
    var err: [String] { lines.withLock { $0.err } }
}

@Suite("deckctl check and usage")
struct DeckctlCheckTests {
    static func run(_ arguments: [String], interactive: Bool = false) -> (status: Int32, out: [String], err: [String]) {
        let captured = CapturedConsole(interactive: interactive)
        let status = Deckctl.run(arguments, console: captured.console)
        return (status, captured.out, captured.err)
    }

    static let layouts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("layouts")

    static var exampleLayouts: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: layouts.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted().map { layouts.appendingPathComponent($0).path }
    }

    @Test func goodAndBrokenFiles() throws {
        let broken = Fixtures.directory.appendingPathComponent("slot-twice.yaml").path
        let problems = try Fixtures.expectedLines("slot-twice").map { "\(Fixtures.directory.path)/\($0)" }
        let piped = Self.run(["check", Self.exampleLayouts[0], broken])
        #expect(piped.status == 65)
        #expect(piped.out == problems, "a script reading the output sees only problems")
        #expect(piped.err.isEmpty)
        let atTerminal = Self.run(["check", Self.exampleLayouts[0], broken], interactive: true)
        #expect(atTerminal.status == 65)
        #expect(atTerminal.out == ["\(Self.exampleLayouts[0]): ok"] + problems)
    }

    @Test func jsonPrintsProblemObjects() throws {
        let broken = Fixtures.directory.appendingPathComponent("syntax.yaml").path
        let result = Self.run(["--json", "check", broken])
        #expect(result.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out[0].utf8)) as? [String: Any])
        #expect(object["file"] as? String == broken && object["line"] as? Int == 5 && object["column"] as? Int == 14)
        #expect(object["message"] as? String == "mapping values are not allowed here (YAML syntax)")
    }

    @Test func everyExampleLayoutIsValid() {
        #expect(Self.exampleLayouts.count >= 2)
        let result = Self.run(["check"] + Self.exampleLayouts)
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out.isEmpty)
    }

    @Test(arguments: [
        ([], "deckctl: no command given; run 'deckctl --help' for usage"),
        (["frobnicate"], "deckctl: unknown command 'frobnicate'; run 'deckctl --help' for usage"),
        (["--verbose", "check", "x"], "deckctl: unknown option '--verbose'; run 'deckctl --help' for usage"),
        (["--control"], "deckctl: --control needs a value: --control PATH; run 'deckctl --help' for usage"),
        (["check"], "deckctl: check needs at least one FILE; run 'deckctl check --help' for usage"),
        (["check", "-q", "x.yaml"], "deckctl: check has no option '-q'; run 'deckctl check --help' for usage"),
        (["chekc", "x.yaml"], "deckctl: unknown command 'chekc'; did you mean 'check'?"),
    ])
    func usageErrorsExit2WithOneSentence(_ arguments: [String], _ message: String) {
        let result = Self.run(arguments)
        #expect(result.status == 2)
        #expect(result.err == [message])
        #expect(result.out.isEmpty)
    }

    @Test func helpListsEveryCommand() {
        let result = Self.run(["--help"])
        #expect(result.status == 0)
        let text = result.out.joined(separator: "\n")
        for command in ["status", "check", "watch", "export", "completion"] { #expect(text.contains("  \(command) ")) }
        #expect(Self.run(["check", "--help"]).out.joined().contains("FILE:LINE:COLUMN"))
    }

    @Test func jsonMayComeAfterTheCommand() throws {
        let broken = Fixtures.directory.appendingPathComponent("syntax.yaml").path
        let result = Self.run(["check", "--json", broken])
        #expect(result.status == 65 && result.out.count == 1 && result.out[0].hasPrefix("{"))
    }

    @Test func optionsEndAtDoubleDash() {
        let result = Self.run(["check", "--", "-not-an-option.yaml"])
        #expect(result.status == 65)
        #expect(result.out == ["-not-an-option.yaml:1:1: cannot read the file: No such file or directory"])
    }

    /// The built executable, end to end: real process, real exit status.
    @Test func theBuiltBinary() throws {
        let deckctl = try BuiltProducts.path("deckctl")
        let broken = try Self.spawn(deckctl, ["check", "unknown-key.yaml", "syntax.yaml"], in: Fixtures.directory.path)
        #expect(broken.status == 65)
        #expect(broken.out == (try Fixtures.expectedLines("unknown-key")) + (try Fixtures.expectedLines("syntax")))
        let good = try Self.spawn(deckctl, ["check"] + Self.exampleLayouts, in: Fixtures.directory.path)
        #expect(good.status == 0)
        #expect(good.out.isEmpty, "a pipe is not a terminal: good files print nothing")
        let usage = try Self.spawn(deckctl, ["check"], in: Fixtures.directory.path)
        #expect(usage.status == 2 && usage.out.isEmpty && usage.err.count == 1)
    }

    static func spawn(_ executable: String, _ arguments: [String], in directory: String) throws -> (status: Int32, out: [String], err: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.reap()
        let lines = { (text: String) in text.split(separator: "\n").map(String.init) }
        return (process.terminationStatus, lines(outText), lines(errText))
    }
}

extension DeckctlCheckTests {
    @Test func filesOfOneFolderSharingANameAreAProblem() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-check")
        let first = folder.appending("desk.yaml").path, second = folder.appending("copy.yaml").path
        try "pages: []\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "# a copy\nname: desk\npages: []\n".write(toFile: second, atomically: true, encoding: .utf8)
        let result = Self.run(["check", first, second])
        #expect(result.status == 65)
        #expect(result.out == ["\(second):2:7: profile name 'desk' is already used by \(first); give one of them another name"])
    }
}

extension DeckctlCheckTests {
    @Test func oneFileNamedTwiceIsNotAClashWithItself() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-check")
        let desk = folder.appending("desk.yaml").path
        try "pages: []\n".write(toFile: desk, atomically: true, encoding: .utf8)
        let again = folder.path + "/./desk.yaml"
        let result = Self.run(["check", desk, again, desk], interactive: true)
        #expect(result.status == 0)
        #expect(result.out == ["\(desk): ok", "\(again): ok", "\(desk): ok"])
    }

    @Test func aFolderSpelledTwoWaysIsStillOneFolder() throws {
        let folder = try TemporaryDirectory(prefix: "profiles-check")
        let first = folder.appending("desk.yaml").path
        try "pages: []\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "name: desk\npages: []\n".write(toFile: folder.appending("copy.yaml").path, atomically: true, encoding: .utf8)
        let second = folder.path + "//copy.yaml"
        let result = Self.run(["check", first, second])
        #expect(result.status == 65)
        #expect(result.out.last == "\(second):1:7: profile name 'desk' is already used by \(first); give one of them another name")
    }
}
