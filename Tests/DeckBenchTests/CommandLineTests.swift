@testable import DeckBench
import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

@Suite("deck-bench's command line")
struct CommandLineTests {
    @Test("options")
    func options() throws {
        #expect(try BenchOptions.parse([]) == .run(BenchOptions()))
        var expected = BenchOptions()
        expected.quick = true
        expected.output = "out.json"
        #expect(try BenchOptions.parse(["--quick", "--output", "out.json"]) == .run(expected))
        #expect(try BenchOptions.parse(["--help"]) == .help)
        #expect(throws: BenchError.self) { try BenchOptions.parse(["--output"]) }
        #expect(throws: BenchError.self) { try BenchOptions.parse(["--fast"]) }
        var only = BenchOptions()
        only.only = ["edits", "start"]
        #expect(try BenchOptions.parse(["--only", "edits,start"]) == .run(only))
        #expect(throws: BenchError.self) { try BenchOptions.parse(["--only", "edits,speed"]) }
        var desk = BenchOptions()
        desk.deskProfile = "desk.yaml"
        #expect(try BenchOptions.parse(["--desk-profile", "desk.yaml"]) == .run(desk))
        #expect(throws: BenchError.self) { try BenchOptions.parse(["--desk-profile", "a.yaml", "--large-profile", "b.yaml"]) }
    }

    @Test("--desk-profile writes the profile the edit figures serve, and it loads")
    func deskProfile() throws {
        let folder = try TemporaryDirectory(prefix: "bench-desk")
        let path = folder.path + "/desk.yaml"
        #expect(BenchCommand.main(["--desk-profile", path]) == 0)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == Bench.deskProfile)
        let profile = try DeckProfile.parse(written, file: "desk.yaml")
        #expect(profile.name == "desk" && profile.layout.pages.count >= 4)
        #expect(BenchCommand.main(["--desk-profile", folder.path + "/no/such/folder/desk.yaml"]) == 1)
    }

    @Test("the port in deckd's ready line")
    func readyLine() {
        let text = "2026-11-29T16:40:00Z info serving profile 'desk'\ndeckd ready on 127.0.0.1:40123 (devices) and /tmp/x/control.sock (control socket)\n"
        #expect(HostProcess.port(in: text) == 40123)
        #expect(HostProcess.port(in: "deckd ready on /tmp/x.sock (control socket)\n") == nil)
    }

    /// Runs the real executable once, quickly, and checks that it reports
    /// every part — never what the figures are.
    @Test("deck-bench --quick runs end to end and writes results.json", .timeLimit(.minutes(2)))
    func quickRun() throws {
        let folder = try TemporaryDirectory(prefix: "bench-smoke")
        let output = folder.path + "/results.json"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path("deck-bench"))
        process.arguments = ["--quick", "--output", output, "--work", folder.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.reap()
        #expect(process.terminationStatus == 0)
        #expect(printed.contains("median"))
        let data = try #require(FileManager.default.contents(atPath: output))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let figures = try #require(json["figures"] as? [[String: Any]])
        let ids = Set(figures.compactMap { $0["id"] as? String })
        for id in ["floor.echo", "floor.durableWrite", "floor.edit", "profile.load", "snapshot.size", "snapshot.write",
                   "edit.roundTrip", "fanout.256", "edits.concurrent", "footprint.rssIdle", "footprint.idleCPU"] {
            #expect(ids.contains(id), "no \(id) in results.json")
        }
        #expect(!ids.contains { $0.hasPrefix("error.") }, "a part failed: \(figures.filter { ($0["id"] as? String)?.hasPrefix("error.") == true })")
    }
}
