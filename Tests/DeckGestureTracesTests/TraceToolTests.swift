import DeckGestureTraces
import DeckTestSupport
import Foundation
import Testing

@Suite("the deck-gestures tool")
struct TraceToolTests {
    static let passing = """
        {"name": "ok", "gesture": {"longPress": {}}, "events": [{"t": 0, "down": [0, 0]}, {"t": 0.71, "tick": true}],
         "expect": [{"t": 0, "cb": "changed", "value": true}, {"t": 0.5, "cb": "ended", "value": true}]}
        """

    func folder(_ files: [String: String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "traces")
        for (name, text) in files { try Data(text.utf8).write(to: folder.appending(name)) }
        return folder
    }

    @Test func checkCountsPassesAndPrintsOneLinePerFailure() throws {
        let wrong = Self.passing.replacingOccurrences(of: "\"t\": 0.5", with: "\"t\": 0.6")
        let dir = try folder(["a.json": Self.passing, "b.json": wrong, "notes.txt": "not a trace"])
        let result = TraceTool.run(["check", dir.path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("FAIL ") == true)
        #expect(lines.first?.contains("b.json") == true)
        #expect(lines.last == "1 passed, 1 failed")
    }

    @Test func allPassingExitsZero() throws {
        let dir = try folder(["a.json": Self.passing])
        let result = TraceTool.run(["check", dir.appending("a.json").path, dir.path])
        #expect(result == TraceTool.Result(output: "2 passed, 0 failed\n", status: 0))
    }

    @Test(arguments: [
        ("broken.json", "{\"name\": \"x\", \"gesture\": ", "not valid JSON"),
        ("nothing.json", "{\"name\": \"x\", \"gesture\": {\"longPress\": {}}, \"events\": []}", "no \"expect\""),
        ("typo.json", "{\"gesture\": {\"longpress\": {}}, \"events\": [], \"expect\": []}", "unknown gesture 'longpress'"),
        ("badevent.json", "{\"gesture\": {\"tap\": {}}, \"events\": [{\"t\": 0, \"press\": [0, 0]}], \"expect\": []}", "events[0]"),
        ("order.json", "{\"gesture\": {\"tap\": {}}, \"events\": [{\"t\": 1, \"down\": [0, 0]}, {\"t\": 0.5, \"up\": [0, 0]}], \"expect\": []}", "time order"),
        ("param.json", "{\"gesture\": {\"drag\": {\"minDistance\": 3}}, \"events\": [], \"expect\": []}", "unknown key 'minDistance'"),
        ("space.json", "{\"gesture\": {\"drag\": {\"coordinateSpace\": \"screen\"}}, \"events\": [], \"expect\": []}", "coordinateSpace"),
        ("expect.json", "{\"gesture\": {\"tap\": {}}, \"events\": [], \"expect\": [{\"cb\": \"ended\"}]}", "expect[0] needs 't'"),
        ("array.json", "[1, 2]", "must be an object"),
    ])
    func anUnusableTraceIsAFailureNeverAPass(file: String, text: String, reason: String) throws {
        let dir = try folder([file: text])
        let result = TraceTool.run(["check", dir.path])
        #expect(result.status == 1)
        #expect(result.output.contains(file))
        #expect(result.output.contains(reason), "\(result.output)")
        #expect(result.output.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func topLevelKeysItDoesNotKnowAreNotes() throws {
        // JSON has no comments: a trace may carry "comment", "why" or a later
        // version's keys beside the ones GESTURES.md §3 names.
        let text = Self.passing.replacingOccurrences(of: "{\"name\"", with: "{\"comment\": \"see §1\", \"why\": [1], \"name\"")
        #expect(text != Self.passing)
        let dir = try folder(["a.json": text])
        #expect(TraceTool.run(["check", dir.path]) == TraceTool.Result(output: "1 passed, 0 failed\n", status: 0))
    }

    @Test func missingPathsAndEmptyFoldersFail() throws {
        let empty = try folder([:])
        let result = TraceTool.run(["check", empty.path, empty.appending("gone.json").path])
        #expect(result.status == 1)
        #expect(result.output.contains("no trace files"))
        #expect(result.output.contains("no such file or folder"))
        #expect(result.output.hasSuffix("0 passed, 2 failed\n"))
    }

    @Test func replayPrintsCallbacksAsJSONLines() throws {
        let dir = try folder(["a.json": Self.passing])
        let result = TraceTool.run(["replay", dir.appending("a.json").path])
        #expect(result.status == 0)
        #expect(result.output == """
            {"t": 0, "cb": "changed", "value": true}
            {"t": 0.5, "cb": "ended", "value": true}

            """)
        // GESTURES.md §3: the output lines are callbacks only, with several traces too.
        let two = TraceTool.run(["replay", dir.appending("a.json").path, dir.appending("a.json").path])
        #expect(two.output == result.output + result.output)
        let bad = TraceTool.run(["replay", dir.appending("gone.json").path])
        #expect(bad.status == 1)
        #expect(bad.errors.contains("no such file"))
    }

    @Test(arguments: [[], ["check"], ["replay"], ["frobnicate"], ["check", "--verbose", "x"]])
    func usageMistakesExitTwo(arguments: [String]) {
        let result = TraceTool.run(arguments)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("deck-gestures: "))
    }

    @Test func helpIsThere() {
        #expect(TraceTool.run(["--help"]).output.contains("deck-gestures check"))
        #expect(TraceTool.run(["check", "--help"]).status == 0)
    }

    /// The real executable over the project's traces, as `make test` and CI run it.
    @Test func theBuiltToolChecksTheProjectTraces() throws {
        let tool = try BuiltProducts.path("deck-gestures")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["check", TraceFiles.folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.reap()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text == "\(TraceFiles.names.count) passed, 0 failed\n")
    }
}
