import DeckProfiles
import Testing

/// PROFILE.md §4's example problems, reproduced at the very positions the
/// contract shows and compared word for word: acceptance checks written
/// against the contract compare whole lines.
@Suite("PROFILE.md §4 messages")
struct SpecMessageTests {
    /// A file and the one line `deckctl check` must print for it.
    static let examples: [(text: String, line: String)] = [
        ("name: default\npages:\n- buttons:\n    0:\n      name: A\n      action: {run: x}\n"
            + "    1:\n      action: {run: x}\n      nmae: B\n",
         "layouts/default.yaml:9:7: unknown key 'nmae' in button (expected name, icon, action)"),
        ("name: default\npages:\n" + String(repeating: "\n", count: 8) + "  - buttons:\n        14: {name: A, action: {run: x}}\n",
         "layouts/default.yaml:12:9: slot 14 is outside a page of 12 slots"),
        ("name: default\npages:\n" + String(repeating: "\n", count: 9) + "- buttons:\n    3: {name: A, action: {run: x}}\n"
            + "    4: {name: B, action: {run: x}}\n    3: {name: C, action: {run: x}}\n",
         "layouts/default.yaml:15:5: slot 3 is given twice (first at line 13)"),
        ("name: default\npages:\n" + String(repeating: "\n", count: 12) + "  - buttons:\n      0:\n        name: A\n"
            + "        action: {cwd: /tmp}\n",
         "layouts/default.yaml:18:17: action needs exactly one of run, open, page, profile, plugin"),
        ("name: default\npages: a: b\n",
         "layouts/default.yaml:2:9: mapping values are not allowed here (YAML syntax)"),
    ]

    @Test(arguments: examples.indices)
    func exampleLine(_ index: Int) {
        let (text, line) = Self.examples[index]
        do {
            _ = try DeckProfile.parse(text, file: "layouts/default.yaml")
            Issue.record("the file loaded, but it has a problem")
        } catch DeckProfilesError.invalid(let problems) {
            #expect(problems.map(\.description) == [line])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
