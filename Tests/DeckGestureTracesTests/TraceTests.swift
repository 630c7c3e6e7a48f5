import DeckGestureTraces
import Foundation
import Testing

@Suite("the project's traces")
struct TraceTests {
    @Test func thereAreTracesToRun() {
        #expect(TraceFiles.names.count >= 16, "Traces/ went missing or lost files")
    }

    @Test(arguments: TraceFiles.names)
    func tracePasses(name: String) throws {
        let trace = try Trace.load(path: TraceFiles.path(name))
        let expect = try #require(trace.expect, "every project trace has an expect")
        let reason = TraceMatcher.mismatch(expected: expect, actual: try trace.replay())
        #expect(reason == nil, "\(name): \(reason ?? "")")
    }
}

@Suite("trace matching")
struct TraceMatcherTests {
    func parse(_ json: String) throws -> [TraceValue] {
        guard case .array(let items) = try TraceValue.parse(Data(json.utf8)) else { throw TraceError("not an array") }
        return items
    }

    @Test func sameInstantMayComeInAnyOrder() throws {
        let expected = try parse(#"[{"t": 0.6, "cb": "lift"}, {"t": 0.6, "cb": "arrange", "on": true}, {"t": 1, "cb": "page", "page": 1}]"#)
        let actual = try parse(#"[{"t": 0.6, "cb": "arrange", "on": true}, {"t": 0.6004, "cb": "lift", "slot": [0, 0]}, {"t": 1.0, "cb": "page", "page": 1}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: actual) == nil)
    }

    @Test func differentInstantsMustKeepTheirOrder() throws {
        let expected = try parse(#"[{"t": 0.5, "cb": "hold"}, {"t": 0.6, "cb": "lift"}]"#)
        let actual = try parse(#"[{"t": 0.6, "cb": "lift"}, {"t": 0.5, "cb": "hold"}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: actual) != nil)
    }

    @Test func timesWithinAMillisecondAndNumbersWithinAHundredth() throws {
        let expected = try parse(#"[{"t": 1.1, "cb": "changed", "value": {"translation": [0.5, 30]}}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 1.1009, "cb": "changed", "value": {"translation": [0.509, 29.991], "velocity": [1, 2]}}]"#)) == nil)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 1.1011, "cb": "changed", "value": {"translation": [0.5, 30]}}]"#)) != nil)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 1.1, "cb": "changed", "value": {"translation": [0.52, 30]}}]"#)) != nil)
    }

    @Test func anExpectedFieldMustBeThere() throws {
        let expected = try parse(#"[{"t": 0.1, "cb": "run", "slot": [0, 1]}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 0.1, "cb": "run"}]"#)) != nil)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 0.1, "cb": "run", "slot": null}]"#)) != nil)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 0.1, "cb": "settings", "slot": [0, 1]}]"#)) != nil)
    }

    @Test func extraOrMissingCallbacksFail() throws {
        let expected = try parse(#"[{"t": 0, "cb": "changed", "value": true}]"#)
        let more = try parse(#"[{"t": 0, "cb": "changed", "value": true}, {"t": 0.5, "cb": "ended", "value": true}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: more)?.contains("unexpected") == true)
        #expect(TraceMatcher.mismatch(expected: more, actual: expected)?.contains("missing") == true)
        #expect(TraceMatcher.mismatch(expected: [], actual: []) == nil)
        let twoAtOnce = try parse(#"[{"t": 0, "cb": "changed", "value": true}, {"t": 0, "cb": "changed", "value": true}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: twoAtOnce) != nil)
    }

    @Test func nullIsAValueToCompare() throws {
        let expected = try parse(#"[{"t": 0.45, "cb": "changed", "value": {"second": [true, null]}}]"#)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 0.45, "cb": "changed", "value": {"second": [true, {"translation": [0, 0]}]}}]"#)) != nil)
        #expect(TraceMatcher.mismatch(expected: expected, actual: try parse(#"[{"t": 0.45, "cb": "changed", "value": {"second": [true, null]}}]"#)) == nil)
    }
}
