import DeckModel
import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

/// Hand-written profiles (anchors, merge keys, both slot forms) read by
/// PyYAML must give the same layout as our loader gives.
@Suite("Loading agrees with PyYAML")
struct CrossCheckTests {
    static let script = """
        \(Python.layoutHelpers)
        for line in open(sys.argv[1], encoding="utf-8"):
            case = json.loads(line)
            got = as_layout(yaml.load(case["yaml"], Loader=yaml.CSafeLoader), case["stem"])
            wanted = {"name": case["name"], "layout": case["layout"]}
            print("ok" if same(got, wanted) else "differs: " + json.dumps(got, ensure_ascii=False))
        """

    @Test func handWrittenProfilesLoadAsPyYAMLReadsThem() throws {
        var sources = DeckctlCheckTests.exampleLayouts.map { path in
            (stem: DeckProfile.stem(of: path), text: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        }
        sources.append(("spec", ProfileLoadTests.specExample))
        sources.append(("large", GeneratedProfiles.large(pages: 60)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var cases: [String] = []
        for source in sources {
            let profile = try DeckProfile.parse(source.text, file: source.stem + ".yaml")
            let layout = String(decoding: try encoder.encode(profile.layout), as: UTF8.self)
            cases.append("{\"stem\": \(Python.json(source.stem)), \"name\": \(Python.json(profile.name)), "
                         + "\"yaml\": \(Python.json(source.text)), \"layout\": \(layout)}")
        }
        let verdicts = try Python.run(script: Self.script, lines: cases)
        try #require(verdicts.count == sources.count)
        for (source, verdict) in zip(sources, verdicts) {
            #expect(verdict == "ok", "\(source.stem): \(verdict.prefix(400))")
        }
    }

    @Test func theLargeGeneratedProfileLoads() throws {
        let profile = try DeckProfile.parse(GeneratedProfiles.large(pages: 300), file: "large.yaml")
        #expect(profile.name == "large")
        #expect(profile.layout.pages.count == 301)
        // Pages 2, 5, 8… are lists with every fifth slot empty; the others fill all 12.
        #expect(profile.layout.buttonCount == 200 * 12 + 100 * 10)
        #expect(profile.layout.button(page: 0, index: 4) == DeckButton(name: "Quick 4", icon: "⚡", action: .run(command: "echo quick", timeout: 5)))
    }
}
