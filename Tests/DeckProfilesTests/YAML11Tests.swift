@testable import DeckProfiles
import Foundation
import Testing

/// YAML 1.1 typing of plain scalars, checked against PyYAML itself.
@Suite("YAML 1.1 scalar typing")
struct YAML11Tests {
    /// Plain scalars that probe every rule of PyYAML's resolver.
    static let samples = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "y", "n", "Y", "N", "yES", "tRUE", "nO",
        "~", "null", "Null", "NULL", "nUll", "Nul", "nulls",
        "0", "00", "007", "08", "09", "0o17", "0b101", "0b", "0b_", "0b2", "0x1F", "0xZ", "0x_1", "-0x1F", "+12", "-12",
        "1_000", "1__0", "_1", "1_", "12e3", "1e3", "1.0e3", "1.0e+3", "1.e+3", "1.0E-3",
        ".5", "-.5", "+.5", "._5", "1.", "1.5", "-1.5", "+1.5", "1_0.5", "0.1.2", "1e+3",
        ".inf", "-.inf", "+.inf", ".Inf", ".INF", ".NaN", ".nan", ".NAN", "-.nan", "inf", "nan", ".infinity",
        "1:30", "1:30:45", "-1:30", "1:60", "1:7", "01:30", "1:30.5", "190:20:30.15", "1:2:3.4.5", "12:30:00",
        "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-15T02:59:43.1Z",
        "2001-1-1", "2001-01-1", "2001-1-1T1:00:00", "2001-13-14", "2001-12-14 21:59", "20011-12-14",
        "<<", "=", "<", "==",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "0x7FFFFFFFFFFFFFFF", "+0b11", "-0b11",
        "다음", "🎙️", "1,000", "v1.2", "Files", "x-terminal-emulator", "~/src", "a~", "--flag", "-1-",
    ]

    /// What PyYAML's safe loader makes of each sample as `v: SAMPLE`, as JSON lines.
    static let script = """
        import json, sys, yaml, datetime
        for line in open(sys.argv[1], encoding="utf-8"):
            text = json.loads(line)
            try:
                value = yaml.safe_load("v: " + text)["v"]
            except Exception:
                print(json.dumps({"type": "error"}))
                continue
            if isinstance(value, bool): out = {"type": "bool", "value": value}
            elif isinstance(value, int): out = {"type": "int", "value": str(value)}
            elif isinstance(value, float): out = {"type": "float", "value": repr(value)}
            elif value is None: out = {"type": "null"}
            elif isinstance(value, (datetime.date, datetime.datetime)): out = {"type": "date"}
            else: out = {"type": "str", "value": value}
            print(json.dumps(out))
        """

    /// Our reading of a sample, in the script's terms.
    static func ours(_ text: String) -> [String: String] {
        var copy = text
        let kind = copy.withUTF8 { YAML11.classify($0) }
        let value = copy.withUTF8 { YAMLScalar.resolve($0, plain: true, tag: nil) }
        switch (kind, value) {
        case (.timestamp, _): return ["type": "date"]
        case (.merge, _), (.value, _), (_, .failure): return ["type": "error"]
        case (_, .success(.bool(let bool))): return ["type": "bool", "value": String(bool)]
        case (_, .success(.int(let int))): return ["type": "int", "value": String(int)]
        case (_, .success(.double(let double))): return ["type": "float", "value": pythonRepr(double)]
        case (_, .success(.null)): return ["type": "null"]
        case (_, .success(.string(let string))): return ["type": "str", "value": string]
        }
    }

    static func pythonRepr(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return value.description
    }

    @Test func classificationMatchesPyYAML() throws {
        let replies = try Python.run(script: Self.script, lines: Self.samples.map(Python.json))
        try #require(replies.count == Self.samples.count)
        for (sample, reply) in zip(Self.samples, replies) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])
            var theirs = ["type": object["type"] as? String ?? "?"]
            switch object["value"] {
            case let bool as Bool where theirs["type"] == "bool": theirs["value"] = String(bool)
            case let text as String: theirs["value"] = text
            default: break
            }
            var mine = Self.ours(sample)
            // PyYAML keeps integers past 64 bits; this reader refuses them (a problem, not a value).
            if mine["type"] == "error", theirs["type"] == "int", let digits = theirs["value"], Int(digits) == nil {
                mine = theirs
            }
            // PyYAML takes `2001-13-14` for a date, then fails to build it; both say "not a string".
            if mine["type"] == "date", theirs["type"] == "error" { mine = theirs }
            #expect(mine == theirs, "\(sample.debugDescription): PyYAML says \(theirs), we say \(mine)")
        }
    }

    @Test(arguments: [
        ("0", 0), ("007", 7), ("0b101", 5), ("0x1F", 31), ("-0x1F", -31), ("1_000", 1000),
        ("1:30", 90), ("-1:30", -90), ("1:30:45", 5445), ("+12", 12), ("9223372036854775807", Int.max),
        ("-9223372036854775808", Int.min),
    ])
    func integers(_ text: String, _ value: Int) {
        var copy = text
        #expect(copy.withUTF8 { YAML11.integer($0) } == .success(value))
    }

    @Test func tooLargeIntegersAreRefused() {
        var copy = "9223372036854775808"
        #expect(copy.withUTF8 { YAML11.integer($0) } == .failure(.numberTooLarge("9223372036854775808")))
    }
}
