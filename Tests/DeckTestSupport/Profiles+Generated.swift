/// Large, realistic profile YAML for load tests and benchmarks.
public enum GeneratedProfiles {
    /// A profile of `pages` pages × `slots` buttons in the mix of styles people
    /// write: flow buttons, block buttons, list-form pages, comments, quoted
    /// and plain strings, Korean and emoji names, every action kind, and
    /// buttons merged from an anchor.
    public static func large(pages: Int = 1_000, slots: Int = 12) -> String {
        var out = """
            # generated: \(pages) pages x \(slots) buttons
            name: large
            slotsPerPage: \(slots)
            x-defaults: &quick {icon: "⚡", action: {run: "echo quick", timeout: 5}}
            pages:

            """
        for page in 0..<pages {
            out += "  - title: \"Page \(page) · 페이지\"\n"
            if page % 3 == 2 {
                out += "    buttons:\n"
                for slot in 0..<slots {
                    out += slot % 5 == 4 ? "      - ~\n" : "      - {name: \"단추 \(page)-\(slot)\", action: {page: next}}\n"
                }
                continue
            }
            out += "    buttons:   # slot: button\n"
            for slot in 0..<slots {
                switch (page + slot) % 6 {
                case 0:
                    out += "      \(slot): {name: Build \(page)-\(slot), icon: hammer, action: {run: \"make -C ~/src/app\", cwd: ~/src, timeout: 600}}\n"
                case 1:
                    out += "      \(slot):\n        name: 🎙️ Mic \(slot)\n        icon: microphone\n        action:\n          plugin: counter\n          command: increment\n          settings: {step: 2, label: \"x\", enabled: yes}\n"
                case 2:
                    out += "      \(slot): {name: 'Docs \(page)', action: {open: \"https://example.com/docs?page=\(page)\"}}\n"
                case 3:
                    out += "      \(slot): {name: Streaming, action: {profile: streaming}}\n"
                case 4:
                    out += "      \(slot): {<<: *quick, name: Quick \(slot)}\n"
                default:
                    out += "      \(slot): {name: Page \(page), action: {page: \(page)}}\n"
                }
            }
        }
        return out
    }
}
