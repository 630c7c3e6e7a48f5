import DeckModel
import DeckProtocol

/// What `deckctl show` draws: a header with the profile, revision and lock
/// state, then each page as a grid of boxes, the slot number in each box's
/// top border, the button's label (after its icon when the icon is an emoji)
/// and what it does inside, empty slots as empty boxes. Three columns of
/// boxes fit in 76 terminal columns, four in 77.
public struct LayoutPicture: Sendable {
    /// The layout to draw.
    public var layout: DeckLayout
    /// The live profile's name.
    public var profile: String
    /// The layout's revision.
    public var revision: Int
    /// Whether the host is locked.
    public var locked: Bool
    /// Boxes per row.
    public var columns: Int

    /// The widest a drawing may be.
    public static let maximumWidth = 80
    /// Columns inside a box when there is room (three boxes a row).
    static let roomyCellWidth = 24

    /// Titles plugins set (`buttonState`), shown in place of those buttons' names.
    public var titles: [DeckSlot: String] = [:]
    /// Live faces (protocol level 8): each button is drawn in its state, with its title.
    public var faces: [DeckSlot: ButtonFace] = [:]
    /// Paint each button's colours with ANSI escapes (a terminal); otherwise
    /// the background's name is written beside the state.
    public var colours = false

    /// A picture with `columns` boxes a row, or the default for the layout's page size.
    public init(layout: DeckLayout, profile: String, revision: Int, locked: Bool, columns: Int? = nil) {
        self.layout = layout
        self.profile = profile
        self.revision = revision
        self.locked = locked
        self.columns = columns ?? Self.defaultColumns(slotsPerPage: layout.slotsPerPage)
    }

    /// Three columns (a phone: 12 slots as 3 × 4) when the page size is a
    /// multiple of 3, else four (a tablet: 16 as 4 × 4) when it is a multiple
    /// of 4, else three; never more than the page has slots.
    public static func defaultColumns(slotsPerPage: Int) -> Int {
        let columns = slotsPerPage % 3 == 0 ? 3 : slotsPerPage % 4 == 0 ? 4 : 3
        return max(1, min(columns, slotsPerPage))
    }

    /// The width inside each box for `columns` boxes a row within 80 terminal columns.
    static func cellWidth(columns: Int) -> Int {
        max(5, min(roomyCellWidth, (maximumWidth - 1) / max(1, columns) - 1))
    }

    /// The header line: `profile default, revision 14, unlocked`.
    public var header: String {
        let lock = locked ? "LOCKED: edits and presses are refused" : "unlocked"
        return "profile \(Label.clean(profile)), revision \(revision), \(lock)"
    }

    /// The drawing: the header, then every page (the empty page that always
    /// ends a layout as one line), or only `page` (drawn even when empty).
    public func lines(page: Int? = nil) -> [String] {
        var lines = [header]
        let pages = page.map { [$0] } ?? Array(layout.pages.indices)
        for number in pages where layout.pages.indices.contains(number) {
            lines.append("")
            if page == nil && number == layout.pages.count - 1 && layout.pages[number].isEmpty {
                // With no button at all (a first run on an empty folder) there is nothing to move.
                lines.append(number == 0 ? "page 0 is empty: the layout has no buttons yet "
                                           + "(add one with 'deckctl set 0 0 --name N --run CMD')"
                                         : "page \(number) is the empty page at the end (move a button there to add a page)")
                continue
            }
            lines += draw(page: number)
        }
        return lines
    }

    /// One page: its heading and its grid.
    func draw(page number: Int) -> [String] {
        let page = layout.pages[number]
        let heading = page.title.map { "page \(number): \(Label.clean($0))" } ?? "page \(number)"
        let width = Self.cellWidth(columns: columns)
        let grid = BoxGrid(columns: max(1, columns), count: page.buttons.count, width: width, height: 2)
        return [heading] + grid.draw(title: { String($0) }, content: { index in
            guard let button = page.buttons[index] else { return [] }
            return cell(button, at: DeckSlot(page: number, index: index), width: width - 2)
        })
    }

    /// A button's two lines as its face shows it: the state's name, icon and
    /// colours, the title; then `[state colour]` and what it does.
    func cell(_ written: DeckButton, at slot: DeckSlot, width: Int) -> [String] {
        var button = written
        let face = faces[slot]
        let state = face?.state.flatMap { written.state($0) }
        if let name = state?.name { button.name = name }
        if let icon = state?.icon { button.icon = icon }
        if let title = face?.title ?? titles[slot] { button.name = title }
        let style = (written.style ?? ButtonStyle()).merged(with: state?.style)
        var tags: [String] = []
        if let first = written.states.first { tags.append(Label.clean(state?.id ?? first.id)) }
        if !colours, let background = style.background { tags.append(background.text) }
        if face?.image != nil { tags.append("image") }
        let summary = (tags.isEmpty ? "" : "[" + tags.joined(separator: " ") + "] ") + Label.summary(of: button.action)
        let label = Label.title(of: button, width: width)
        return [colours ? Self.paint(DisplayWidth.pad(label, to: width), style) : label, DisplayWidth.truncate(summary, to: width)]
    }

    /// `text` in 24-bit ANSI colours, reset after it; unchanged without a style.
    static func paint(_ text: String, _ style: ButtonStyle) -> String {
        guard !style.isEmpty else { return text }
        var codes: [String] = []
        if let color = style.color { codes.append("38;2;\(color.rgb.red);\(color.rgb.green);\(color.rgb.blue)") }
        if let background = style.background {
            codes.append("48;2;\(background.rgb.red);\(background.rgb.green);\(background.rgb.blue)")
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m" + text + "\u{1B}[0m"
    }
}

/// Text from a layout made safe and short for a terminal.
enum Label {
    /// `text` with line breaks, tabs and other control characters as spaces,
    /// and bidirectional controls removed: a label must not move the
    /// terminal's cursor, start a new line, or reorder the box around it.
    static func clean(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                result.unicodeScalars.append(" ")
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The button's label, after its icon when the icon is one emoji or
    /// other non-ASCII character (icon names such as `folder` are left out),
    /// cut to `width` columns.
    static func title(of button: DeckButton, width: Int) -> String {
        let name = clean(button.name)
        guard let icon = button.icon.map(clean), icon.count == 1, icon.unicodeScalars.contains(where: { !$0.isASCII }),
              DisplayWidth.of(icon) > 0 else {
            return DisplayWidth.truncate(name, to: width)
        }
        return DisplayWidth.truncate(icon + " " + name, to: width)
    }

    /// What the button does, in a few words: `run make`, `open ~`, `page next`,
    /// `profile streaming`, `plugin counter increment`.
    static func summary(of action: DeckAction) -> String {
        switch action {
        case .run(let command, _, _, _): clean("run " + command)
        case .open(let target): clean("open " + target)
        case .page(.next): "page next"
        case .page(.previous): "page previous"
        case .page(.number(let page)): "page \(page)"
        case .profile(let profile): clean("profile " + profile)
        case .plugin(let id, let command, _): clean("plugin \(id) \(command)")
        }
    }
}
