import DeckModel

/// One `follow` command the live layout declares (docs/faces.md §6): the
/// button it drives and what to run.
struct FollowSpec: Hashable, Sendable {
    var page: Int
    var index: Int
    /// The button's name, for log lines and `status`.
    var name: String
    var command: String
    var cwd: String?

    /// Every `follow` of a layout, in page and slot order.
    static func all(in layout: DeckLayout) -> [FollowSpec] {
        layout.pages.enumerated().flatMap { number, page in all(on: page, number: number) }
    }

    /// Every `follow` of one page (page `number` of its layout), in slot order.
    static func all(on page: DeckPage, number: Int) -> [FollowSpec] {
        page.buttons.enumerated().compactMap { index, slot in
            guard let button = slot, case let .run(_, cwd, _, follow?) = button.action else { return nil }
            return FollowSpec(page: number, index: index, name: button.name, command: follow, cwd: cwd)
        }
    }

    /// `'Mic' (page 1, button 3)`: how messages name the button, 1-based as `deckctl` counts.
    var described: String { "'\(name)' at \(page)/\(index)" }
}

/// What one output line of a follow command asks for.
enum FollowLine: Equatable, Sendable {
    /// `state ID`: show that state of the button.
    case state(String)
    /// `title TEXT`, or `title` alone to clear it (nil).
    case title(String?)
    /// `alert`: the red flash.
    case alert
    /// `ok`: the green flash.
    case ok

    /// Reads one line (without its line ending); nil for a line that is not
    /// one of the four. Spaces around the line are not part of it; after the
    /// word, one space separates and the rest is the value as written.
    init?(_ line: Substring) {
        let text = line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()
        let trimmed = String(text)
        let word = trimmed.prefix { $0 != " " && $0 != "\t" }
        let rest = trimmed.dropFirst(word.count).dropFirst()
        switch word {
        case "state" where !rest.isEmpty && !rest.contains(" "): self = .state(String(rest))
        case "title": self = .title(rest.isEmpty ? nil : String(rest))
        case "alert" where rest.isEmpty: self = .alert
        case "ok" where rest.isEmpty: self = .ok
        default: return nil
        }
    }
}
