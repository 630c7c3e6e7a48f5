import DeckModel

/// Random but valid model values, for round-trip and property tests.
public enum RandomLayouts {
    /// Names that exercise quoting and wide characters: Korean, emoji, YAML
    /// look-alikes (`yes`, `~`, `1.5`, `a: b`), leading spaces and quotes.
    public static let awkwardNames = [
        "Files", "다음 페이지", "🎙️ Mic", "yes", "No", "~", "null", "1.5", "007", "a: b", "- dash",
        "#hash", "quote's", "\"dq\"", " lead", "trail ", "tab\tin", "line\nbreak", "{brace}", "[x]",
        "*star", "&amp", "!bang", "%pct", "@at", "`tick`", "ünïcødé", "Ω", "true", "@", "on", "0x1F",
    ]

    /// A random valid action of any kind.
    public static func action(using rng: inout some RandomNumberGenerator) -> DeckAction {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            return .run(
                command: awkwardNames.randomElement(using: &rng)! + " --flag",
                cwd: Bool.random(using: &rng) ? "~/src/" + awkwardNames.randomElement(using: &rng)! : nil,
                timeout: Bool.random(using: &rng) ? [1, 2.5, 600, 0.25].randomElement(using: &rng)! : nil)
        case 1:
            return .open(["~", "https://example.com/?q=a&b=c", "mailto:a@b.c", "/tmp/x y"].randomElement(using: &rng)!)
        case 2:
            return .page([.next, .previous, .number(Int.random(in: 0..<9, using: &rng))].randomElement(using: &rng)!)
        case 3:
            return .profile(awkwardNames.randomElement(using: &rng)!)
        default:
            let settings: [String: DeckValue]? = Bool.random(using: &rng) ? nil : [
                "step": .int(Int.random(in: -5...5, using: &rng)),
                "label": .string(awkwardNames.randomElement(using: &rng)!),
                "on": .bool(Bool.random(using: &rng)),
                "ratio": .double(0.5),
                "list": .array([.int(1), .string("two"), .null]),
                "nested": .object(["k": .string("v")]),
            ]
            return .plugin(id: "counter", command: "increment", settings: settings)
        }
    }

    /// A random valid button whose name carries `tag`, so tests can count buttons by name.
    public static func button(tag: Int, using rng: inout some RandomNumberGenerator) -> DeckButton {
        let base = awkwardNames.randomElement(using: &rng)!
        let icon: String? = [nil, "folder", "🎙️", "terminal"].randomElement(using: &rng)!
        return DeckButton(name: "\(base) #\(tag)", icon: icon, action: action(using: &rng),
                          style: style(tag: tag), states: states(tag: tag))
    }

    /// Some buttons get a style and some states, chosen by `tag` rather than
    /// by the generator so the random draws (and the seeds' layouts) stay as
    /// they were before buttons had faces.
    static func style(tag: Int) -> ButtonStyle? {
        switch tag % 6 {
        case 1: ButtonStyle(color: DeckColor("white"), background: DeckColor("#1F6F3F"))
        case 4: ButtonStyle(background: DeckColor("gray"))
        default: nil
        }
    }

    static func states(tag: Int) -> [ButtonState] {
        guard tag % 5 == 2 else { return [] }
        return [ButtonState(id: "live"),
                ButtonState(id: "muted", name: "꺼짐 \"off\"", icon: "🔇", style: ButtonStyle(background: DeckColor("red"))),
                ButtonState(id: "yes", style: ButtonStyle(color: DeckColor("#abc")))]
    }

    /// A random normalized layout with up to `maxPages` pages.
    public static func layout(maxPages: Int = 4, slots: Int = 12, using rng: inout some RandomNumberGenerator) -> DeckLayout {
        var tag = 0
        let pages = (0..<Int.random(in: 0...maxPages, using: &rng)).map { _ in
            DeckPage(
                title: Bool.random(using: &rng) ? awkwardNames.randomElement(using: &rng) : nil,
                buttons: (0..<slots).map { _ -> DeckButton? in
                    guard Int.random(in: 0..<3, using: &rng) == 0 else { return nil }
                    tag += 1
                    return button(tag: tag, using: &rng)
                })
        }
        do {
            return try DeckLayout(slotsPerPage: slots, pages: pages)
        } catch {
            preconditionFailure("random layout was invalid: \(error)")
        }
    }
}
