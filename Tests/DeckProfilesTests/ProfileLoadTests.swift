import DeckModel
import DeckProfiles
import Testing

@Suite("Loading profiles")
struct ProfileLoadTests {
    static func load(_ text: String, file: String = "layouts/default.yaml") throws -> DeckProfile {
        try DeckProfile.parse(text, file: file)
    }

    /// The example of PROFILE.md §1, as written there.
    static let specExample = """
        # layouts/default.yaml
        name: default            # optional; defaults to the file stem
        slotsPerPage: 12         # optional; default 12 (phone 3 columns x 4 rows, tablet 4 x 3)
        pages:
          - title: Main          # optional
            buttons:             # a mapping from 0-based slot index to button ...
              0:  {name: Files, icon: folder, action: {open: "~"}}
              1:
                name: Terminal
                icon: terminal
                action: {run: "x-terminal-emulator"}
              5:  {name: "다음 페이지", action: {page: next}}
          - buttons:             # ... or a list, one entry per slot, ~ for an empty slot
              - {name: Build, action: {run: "make -C ~/src/app", timeout: 600}}
              - ~
              - {name: Mute, action: {plugin: audio, command: toggle-mute}}
        """

    @Test func theContractsExample() throws {
        let profile = try Self.load(Self.specExample)
        #expect(profile.name == "default")
        let layout = profile.layout
        #expect(layout.slotsPerPage == 12)
        #expect(layout.pages.count == 3, "two pages and the empty one normal form adds")
        #expect(layout.isNormal)
        #expect(layout.pages[0].title == "Main")
        #expect(layout.button(page: 0, index: 0) == DeckButton(name: "Files", icon: "folder", action: .open("~")))
        #expect(layout.button(page: 0, index: 1) == DeckButton(name: "Terminal", icon: "terminal", action: .run(command: "x-terminal-emulator")))
        #expect(layout.button(page: 0, index: 5) == DeckButton(name: "다음 페이지", action: .page(.next)))
        #expect(layout.button(page: 1, index: 0) == DeckButton(name: "Build", action: .run(command: "make -C ~/src/app", timeout: 600)))
        #expect(layout.button(page: 1, index: 1) == nil)
        #expect(layout.button(page: 1, index: 2) == DeckButton(name: "Mute", action: .plugin(id: "audio", command: "toggle-mute")))
        #expect(layout.buttonCount == 5)
    }

    @Test func nameDefaultsToTheFileStem() throws {
        #expect(try Self.load("pages: []", file: "/x/y/streaming.yaml").name == "streaming")
        #expect(try Self.load("pages: []", file: "tablet.yml").name == "tablet")
        #expect(try Self.load("name: ~\npages: []", file: "a.b.yaml").name == "a.b")
        #expect(try Self.load("name: 2024\npages: []").name == "2024")
    }

    @Test func stringFieldsTakeTheTextAsWritten() throws {
        let profile = try Self.load("""
            pages:
              - title: 2024
                buttons:
                  0: {name: yes, icon: on, action: {run: true, cwd: 1.5}}
                  1: {name: 0x1F, action: {profile: null-profile}}
                  2: {name: 1_000, action: {open: 2024-01-02}}
                  3: {name: '~', action: {plugin: 007, command: no}}
                  4:
                    name: "  padded  "
                    action:
                      run: |
                        echo one
                        echo two
            """)
        let page = profile.layout.pages[0]
        #expect(page.title == "2024")
        #expect(page.buttons[0] == DeckButton(name: "yes", icon: "on", action: .run(command: "true", cwd: "1.5")))
        #expect(page.buttons[1] == DeckButton(name: "0x1F", action: .profile("null-profile")))
        #expect(page.buttons[2] == DeckButton(name: "1_000", action: .open("2024-01-02")))
        #expect(page.buttons[3] == DeckButton(name: "~", action: .plugin(id: "007", command: "no")))
        #expect(page.buttons[4] == DeckButton(name: "  padded  ", action: .run(command: "echo one\necho two")))
    }

    @Test func nullOptionalFieldsAreAbsent() throws {
        let profile = try Self.load("""
            pages:
              - title: ~
                buttons:
                  0: {name: A, icon: null, action: {run: x, cwd: ~, timeout: ~}}
                  1: ~
                  2:
                  3: {name: B, action: {plugin: p, command: c, settings: ~}}
              - buttons: ~
              - {}
              - buttons: [~, {name: C, action: {page: 2}}]
            """)
        let layout = profile.layout
        #expect(layout.pages[0].title == nil)
        #expect(layout.button(page: 0, index: 0) == DeckButton(name: "A", action: .run(command: "x")))
        #expect(layout.button(page: 0, index: 3) == DeckButton(name: "B", action: .plugin(id: "p", command: "c")))
        #expect(layout.pages[0].buttonCount == 2)
        #expect(layout.pages[1].isEmpty && layout.pages[2].isEmpty, "empty pages in the middle stay")
        #expect(layout.button(page: 3, index: 1) == DeckButton(name: "C", action: .page(.number(2))))
        #expect(layout.pages.count == 5)
    }

    @Test func numbersMayBeQuoted() throws {
        let profile = try Self.load("""
            slotsPerPage: "8"
            pages:
              - buttons:
                  "3": {name: A, action: {page: "4"}}
                  '7': {name: B, action: {run: x, timeout: "2.5"}}
            """)
        #expect(profile.layout.slotsPerPage == 8)
        #expect(profile.layout.button(page: 0, index: 3)?.action == .page(.number(4)))
        #expect(profile.layout.button(page: 0, index: 7)?.action == .run(command: "x", timeout: 2.5))
    }

    @Test func settingsUseYAML11Typing() throws {
        let profile = try Self.load("""
            pages:
              - buttons:
                  0:
                    name: Counter
                    action:
                      plugin: counter
                      command: increment
                      settings:
                        step: 2
                        hex: 0x10
                        ratio: 0.5
                        loud: yes
                        quiet: off
                        label: "yes"
                        nothing: ~
                        when: 2024-01-02
                        list: [1, two, ~, [3]]
                        nested: {k: v, 1: one}
            """)
        guard case .plugin(_, _, let settings)? = profile.layout.button(page: 0, index: 0)?.action else {
            Issue.record("not a plugin action")
            return
        }
        #expect(settings == [
            "step": .int(2), "hex": .int(16), "ratio": .double(0.5), "loud": .bool(true), "quiet": .bool(false),
            "label": .string("yes"), "nothing": .null, "when": .string("2024-01-02"),
            "list": .array([.int(1), .string("two"), .null, .array([.int(3)])]),
            "nested": .object(["k": .string("v"), "1": .string("one")]),
        ])
    }

    @Test func anchorsAliasesAndMergeKeysUnderAnXKey() throws {
        let profile = try Self.load("""
            x-defaults:
              quick: &quick {icon: "⚡", action: {run: "echo quick", timeout: 5}}
              dev: &dev {cwd: ~/src, timeout: 600}
            x-anything-else: [1, 2, 3]
            pages:
              - buttons:
                  0: {<<: *quick, name: Quick}
                  1: {<<: *quick, name: Other, icon: "🚀"}
                  2: {name: Build, action: {<<: *dev, run: make}}
                  3: {name: Test, action: {<<: *dev, run: make test, timeout: 60}}
            """)
        let page = profile.layout.pages[0]
        #expect(page.buttons[0] == DeckButton(name: "Quick", icon: "⚡", action: .run(command: "echo quick", timeout: 5)))
        #expect(page.buttons[1] == DeckButton(name: "Other", icon: "🚀", action: .run(command: "echo quick", timeout: 5)))
        #expect(page.buttons[2] == DeckButton(name: "Build", action: .run(command: "make", cwd: "~/src", timeout: 600)))
        #expect(page.buttons[3] == DeckButton(name: "Test", action: .run(command: "make test", cwd: "~/src", timeout: 60)))
    }

    @Test func blockStyleAndCommentsEverywhere() throws {
        let profile = try Self.load("""
            ---
            # comment before
            name: "desk" # trailing
            pages:
            # between
            - title: 'It''s main'
              buttons:
              - name: 첫 번째 # Korean
                action:
                  open: https://example.com/#anchor
              - ~
            ...
            """)
        #expect(profile.name == "desk")
        #expect(profile.layout.pages[0].title == "It's main")
        #expect(profile.layout.button(page: 0, index: 0) == DeckButton(name: "첫 번째", action: .open("https://example.com/#anchor")))
    }

    @Test func slotsPerPageSizesEveryPage() throws {
        let profile = try Self.load("""
            slotsPerPage: 4
            pages:
              - buttons: {3: {name: Last, action: {page: previous}}}
              - buttons: [{name: First, action: {page: next}}]
              - buttons: {}
              - buttons: {}
            """)
        #expect(profile.layout.slotsPerPage == 4)
        #expect(profile.layout.pages.allSatisfy { $0.buttons.count == 4 })
        #expect(profile.layout.pages.count == 3, "trailing empty pages trimmed to one")
    }

    @Test func loadedButtonsPassTheModelsOwnValidation() throws {
        let profile = try Self.load(Self.specExample)
        for placed in profile.layout.placedButtons {
            #expect(throws: Never.self) { try placed.button.validate() }
        }
    }
}
