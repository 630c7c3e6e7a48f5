import DeckProfiles
import Foundation

/// Figure 4: loading the large profile (parse, validate, normalize) against
/// a bare libyaml event scan of the same bytes in the same process (the
/// floor) and PyYAML's CSafeLoader on the same file (a reference).
extension Bench {
    func measureProfileLoad() throws {
        let bytes = largeYAML
        let events = YAMLDocument.countEvents(bytes) ?? 0
        let samples = try Measure.interleaved(count: plan.profileLoad.count, warmUp: plan.profileLoad.warmUp, [
            { try BenchClock.time { _ = try DeckProfile.parse(bytes, file: "large.yaml") } / 1_000 },
            { BenchClock.time { _ = YAMLDocument.countEvents(bytes) } / 1_000 },
        ])
        let load = Figure.Value(samples[0])
        let ratio = samples[0].median / max(samples[1].median, 1e-9)
        record(Figure(id: "profile.load", title: "profile load, \(plan.largePages) pages × 12", unit: "ms", value: load,
                      baselineLabel: "bare libyaml event scan (floor)", baseline: .init(samples[1]),
                      target: "≤ 2× the scan at the median", verdict: ratio <= 2 ? .met : .missed,
                      note: "\(bytes.count / 1_000) KB, \(events) libyaml events, \(large.layout.buttonCount) buttons"))

        try measureRepeatedKeys()

        let path = try folder("profile") + "/large.yaml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let python = try Python.run(Python.cSafeLoader, [path, String(plan.pythonLoads), path + ".out.json"], in: work.path)
        guard let times = python["times_us"] as? [Double] else { throw BenchError.setup("the CSafeLoader script gave no times") }
        let reference = Samples(times).scaled(by: 1e-3)
        record(Figure(id: "profile.load.vsCSafeLoader", title: "profile load vs PyYAML CSafeLoader", unit: "ms", value: load,
                      baselineLabel: "PyYAML \(python["version"] ?? "?") CSafeLoader (reference)", baseline: .init(reference),
                      target: "faster than CSafeLoader", verdict: samples[0].median < reference.median ? .met : .missed,
                      note: "CSafeLoader builds Python objects only; it checks nothing of the profile"))
    }

    /// Issue 18: a button whose settings give 100,000 keys, each ten times
    /// over. The check for a repeated key searched the keys before it (17 s);
    /// it must stay a small multiple of libyaml's own scan of the file.
    func measureRepeatedKeys() throws {
        var text = "pages:\n  - buttons:\n      0:\n        name: a\n        action:\n          plugin: p\n          command: c\n          settings:\n"
        for key in 0..<100_000 { text += "            k\(key % 10_000): \(key)\n" }
        let bytes = Array(text.utf8)
        let samples = try Measure.interleaved(count: max(3, plan.profileLoad.count / 5), warmUp: 1, [
            { BenchClock.time { _ = try? DeckProfile.parse(bytes, file: "repeated.yaml") } / 1_000 },
            { BenchClock.time { _ = YAMLDocument.countEvents(bytes) } / 1_000 },
        ])
        let ratio = samples[0].median / max(samples[1].median, 1e-9)
        record(Figure(id: "profile.repeatedKeys", title: "profile check, 100,000 repeated settings keys", unit: "ms",
                      value: .init(samples[0]), baselineLabel: "bare libyaml event scan (floor)", baseline: .init(samples[1]),
                      target: "≤ 10× the scan at the median (it was quadratic: 17 s)", verdict: ratio <= 10 ? .met : .missed,
                      note: "\(bytes.count / 1_000) KB; 90,000 problems found, 100 listed"))
    }
}
