import DeckModel
@testable import DeckProfiles
import DeckTestSupport
import Foundation
import Testing

@Suite("Exporting profiles")
struct ExportTests {
    @Test func canonicalForm() throws {
        var pages = [DeckPage.empty(slots: 12), .empty(slots: 12), .empty(slots: 12)]
        pages[0].title = "Main"
        pages[0].buttons[0] = DeckButton(name: "Files", icon: "folder", action: .open("~"))
        pages[0].buttons[5] = DeckButton(name: "다음 페이지", action: .page(.next))
        pages[0].buttons[11] = DeckButton(name: "yes", icon: "🎙️", action: .run(command: "make -C ~/src/app", cwd: "~/src", timeout: 600))
        pages[2].buttons[1] = DeckButton(name: "Count: 3", action: .plugin(
            id: "counter", command: "increment",
            settings: ["step": .int(2), "on": .bool(true), "ratio": .double(1), "label": .string("1.5"), "list": .array([.null, .string("a, b")])]))
        pages[2].buttons[2] = DeckButton(name: "Back", action: .page(.number(0)))
        pages[2].buttons[3] = DeckButton(name: "Stream", action: .profile("streaming"))
        pages[2].buttons[4] = DeckButton(name: "Slow", action: .run(command: "sleep 1", timeout: 2.5))
        let profile = DeckProfile(name: "default", layout: try DeckLayout(slotsPerPage: 12, pages: pages))
        #expect(profile.yaml == """
            name: default
            slotsPerPage: 12
            pages:
              - title: Main
                buttons:
                  0: {name: Files, icon: folder, action: {open: "~"}}
                  5: {name: 다음 페이지, action: {page: next}}
                  11: {name: "yes", icon: 🎙️, action: {run: make -C ~/src/app, cwd: ~/src, timeout: 600}}
              - buttons: {}
              - buttons:
                  1: {name: "Count: 3", action: {plugin: counter, command: increment, settings: {label: "1.5", list: [null, "a, b"], "on": true, ratio: 1.0, step: 2}}}
                  2: {name: Back, action: {page: 0}}
                  3: {name: Stream, action: {profile: streaming}}
                  4: {name: Slow, action: {run: sleep 1, timeout: 2.5}}

            """)
        #expect(try DeckProfile.parse(profile.yaml, file: "x.yaml") == profile)
    }

    @Test func emptyLayout() throws {
        let profile = DeckProfile(name: "empty", layout: .empty(slotsPerPage: 4))
        #expect(profile.yaml == "name: empty\nslotsPerPage: 4\npages: []\n")
        #expect(try DeckProfile.parse(profile.yaml, file: "x.yaml") == profile)
    }

    @Test(arguments: [
        ("Files", false), ("다음 페이지", false), ("🎙️ Mic", false), ("~/src", false), ("make -C ~/src", false),
        ("quote's", false), ("a#b", false), ("v1.2", false), ("+.5", false), ("x-y", false), ("a:b", true),
        ("", true), (" lead", true), ("trail ", true), ("yes", true), ("No", true), ("~", true), ("null", true),
        ("1.5", true), ("007", true), ("0x1F", true), ("1_000", true), ("1:30", true), (".inf", true),
        ("2024-01-02", true), ("<<", true), ("=", true), ("a: b", true), ("a #b", true), ("- dash", true),
        ("-dash", true), ("#hash", true), ("\"dq\"", true), ("'sq'", true), ("{brace}", true), ("[x]", true),
        ("*star", true), ("&amp", true), ("!bang", true), ("%pct", true), ("@at", true), ("`tick`", true),
        ("|pipe", true), (">gt", true), ("?q", true), ("a, b", true), ("end:", true), ("tab\tin", true),
        ("line\nbreak", true), ("nel\u{85}x", true), ("ls\u{2028}x", true), ("bom\u{FEFF}x", true), ("del\u{7F}", true),
    ])
    func quotingInFlowContext(_ text: String, _ quoted: Bool) {
        #expect(YAMLText.needsQuotes(text, flow: true) == quoted)
    }

    @Test func blockContextAllowsFlowCharacters() {
        #expect(!YAMLText.needsQuotes("Dev, Ops [x]", flow: false))
        #expect(!YAMLText.needsQuotes("a:b", flow: false))
        #expect(YAMLText.needsQuotes("a: b", flow: false))
    }

    @Test func escapesKeepWideCharactersReadable() {
        #expect(YAMLText.doubleQuoted("다음\t\"🎙️\"\\\n\u{7}\u{85}\u{2028}\u{FEFF}") == #""다음\t\"🎙️\"\\\n\a\N\L\uFEFF""#)
    }

    @Test(arguments: [0.5, 1, 100, 1e20, 1.5e-7, -2.25, .leastNonzeroMagnitude, Double.greatestFiniteMagnitude, .infinity, -.infinity])
    func floatsStayFloats(_ value: Double) {
        var text = YAMLText.float(value)
        #expect(text.withUTF8 { YAML11.classify($0) } == .float, "\(text)")
        #expect(text.withUTF8 { YAML11.float($0) } == value)
    }

    /// Random strings built from the characters that trip YAML writers.
    static func awkwardString(using rng: inout some RandomNumberGenerator) -> String {
        let pieces = [
            " ", "  ", "\t", "\n", "\r", ":", ": ", "#", " #", "-", "- ", "?", ",", "[", "]", "{", "}", "&", "*", "!",
            "|", ">", "'", "\"", "%", "@", "`", "~", "\\", "<<", "=", "yes", "No", "null", "1", "0x", "1.5", ".inf",
            "2024-01-02", "_", "다음", "🎙️", "Ω", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{7F}", "\u{1}", "a", "Files", "e+3",
        ]
        return (0..<Int.random(in: 1...5, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    @Test func quotedScalarsReadBackExactly() throws {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<3000 {
            let text = Self.awkwardString(using: &rng)
            for flow in [true, false] {
                let written = YAMLText.scalar(text, flow: flow)
                let source = flow ? "v: {k: \(written)}\n" : "v: \(written)\n"
                let document = YAMLDocument.parse(Array(source.utf8), file: "t.yaml")
                let root = try #require(document.root, "\(text.debugDescription): \(document.problems)")
                var node = document.pair(root, 0).value
                if flow { node = document.pair(node, 0).value }
                #expect(document.problems.isEmpty && document.text(node) == text && document.isText(node),
                        "\(text.debugDescription) written as \(written)")
            }
        }
    }

    @Test func randomLayoutsRoundTrip() throws {
        var rng = SeededGenerator(seed: 2026)
        for round in 0..<2000 {
            let slots = [1, 3, 12, 20][round % 4]
            let profile = DeckProfile(name: "p\(round)", layout: RandomLayouts.layout(maxPages: 5, slots: slots, using: &rng))
            let back = try DeckProfile.parse(profile.yaml, file: "p.yaml")
            #expect(back == profile, "round \(round):\n\(profile.yaml)")
            if back != profile { return }
        }
    }

    /// The export read by a second YAML implementation: PyYAML (its pure
    /// Python loader and its libyaml-based one) must see the layout's JSON.
    static let pythonCheck = """
        \(Python.layoutHelpers)
        for line in open(sys.argv[1], encoding="utf-8"):
            case = json.loads(line)
            wanted = {"name": case["name"], "layout": case["layout"]}
            verdicts = []
            for loader in (yaml.SafeLoader, yaml.CSafeLoader):
                try:
                    got = as_layout(yaml.load(case["yaml"], Loader=loader), case["name"])
                    verdicts.append("ok" if same(got, wanted) else "differs: " + json.dumps(got, ensure_ascii=False))
                except Exception as error:
                    verdicts.append("error: " + repr(error))
            print(json.dumps(verdicts))
        """

    @Test func pyYAMLReadsTheExportAsTheLayoutsJSON() throws {
        var rng = SeededGenerator(seed: 99)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var cases: [String] = []
        var profiles: [DeckProfile] = []
        for round in 0..<400 {
            let name = RandomLayouts.awkwardNames[round % RandomLayouts.awkwardNames.count]
            guard !name.contains("\n"), !name.contains("\t") else { continue }
            let profile = DeckProfile(name: name, layout: RandomLayouts.layout(maxPages: 4, slots: [12, 4][round % 2], using: &rng))
            let layout = String(decoding: try encoder.encode(profile.layout), as: UTF8.self)
            cases.append("{\"name\": \(Python.json(name)), \"yaml\": \(Python.json(profile.yaml)), \"layout\": \(layout)}")
            profiles.append(profile)
        }
        let verdicts = try Python.run(script: Self.pythonCheck, lines: cases)
        try #require(verdicts.count == cases.count)
        for (profile, verdict) in zip(profiles, verdicts) {
            #expect(verdict == #"["ok", "ok"]"#, "\(verdict)\n\(profile.yaml)")
        }
    }
}

@Suite("Exporting styles and states")
struct FaceExportTests {
    @Test func canonicalFormWithFaces() throws {
        let yaml = """
            name: faces
            pages:
              - buttons:
                  - name: Mic
                    icon: "🎙"
                    style: {color: WHITE, background: "#1F6F3F"}
                    action: {plugin: sound, command: mute, settings: {target: input}}
                    states:
                      - {id: live}
                      - {id: muted, name: "Mic off", icon: "🔇", style: {background: gray}}
                  - {name: Rec, action: {run: x}, states: [{id: "yes", style: {color: "#abc"}}]}
            """
        let profile = try DeckProfile.parse(yaml, file: "faces.yaml")
        let mic = try #require(profile.layout.pages[0].buttons[0])
        #expect(mic.style == ButtonStyle(color: DeckColor("white"), background: DeckColor("#1f6f3f")))
        #expect(mic.states.map(\.id) == ["live", "muted"])
        #expect(mic.states[1].style?.background?.text == "grey", "gray is grey")
        #expect(profile.yaml == """
            name: faces
            slotsPerPage: 12
            pages:
              - buttons:
                  0: {name: Mic, icon: 🎙, action: {plugin: sound, command: mute, settings: {target: input}}, style: {color: white, background: "#1f6f3f"}, states: [{id: live}, {id: muted, name: Mic off, icon: 🔇, style: {background: grey}}]}
                  1: {name: Rec, action: {run: x}, states: [{id: "yes", style: {color: "#abc"}}]}

            """)
        #expect(try DeckProfile.parse(profile.yaml, file: "x.yaml") == profile)
    }
}
