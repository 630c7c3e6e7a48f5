/// A colour of a button's text or background (docs/faces.md §1): a CSS hex
/// colour (`#rgb`, `#rrggbb`) or one of the named ``palette``.
///
/// Always normalised: hex in lower case as written (`#ABC` is `#abc`, not
/// expanded), names in lower case with `gray` as `grey`. Two colours are
/// equal when their normalised text is.
public struct DeckColor: Hashable, Sendable, CustomStringConvertible {
    /// The normalised text (`red`, `#1f6f3f`), as JSON and exports carry it.
    public let text: String

    /// The named colours, in the order docs list them (`gray` is accepted as `grey`).
    public static let palette = ["black", "white", "grey", "red", "orange", "yellow", "green", "teal", "blue",
                                 "purple", "pink"]

    /// Reads `text`; nil when it is neither a hex colour nor a palette name.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        if lowered == "gray" {
            self.text = "grey"
        } else if Self.palette.contains(lowered) {
            self.text = lowered
        } else if Self.isHex(lowered) {
            self.text = lowered
        } else {
            return nil
        }
    }

    /// The colour as `#rrggbb`, for painters that want numbers (`deckctl show`).
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        if let named = Self.namedRGB[text] { return named }
        let digits = Array(text.utf8.dropFirst()).map { Self.hexValue($0) }
        if digits.count == 3 { return (digits[0] * 17, digits[1] * 17, digits[2] * 17) }
        return (digits[0] * 16 + digits[1], digits[2] * 16 + digits[3], digits[4] * 16 + digits[5])
    }

    /// ``text``.
    public var description: String { text }

    private static func isHex(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 4 || utf8.count == 7 else { return false }
        return utf8.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 { byte <= 0x39 ? byte - 0x30 : byte - 0x61 + 10 }

    /// The palette as the web deck paints it (Apps/web keeps the same values).
    private static let namedRGB: [String: (UInt8, UInt8, UInt8)] = [
        "black": (0x00, 0x00, 0x00), "white": (0xff, 0xff, 0xff), "grey": (0x80, 0x80, 0x80),
        "red": (0xd9, 0x30, 0x25), "orange": (0xf2, 0x8c, 0x28), "yellow": (0xf2, 0xd0, 0x24),
        "green": (0x2e, 0xa0, 0x43), "teal": (0x1a, 0x9c, 0x9c), "blue": (0x2f, 0x6f, 0xd6),
        "purple": (0x8a, 0x4f, 0xd6), "pink": (0xe8, 0x5a, 0xa8),
    ]
}

/// A button's or a state's colours; each field nil when not given.
public struct ButtonStyle: Hashable, Sendable {
    /// The text's colour.
    public var color: DeckColor?
    /// The background's colour.
    public var background: DeckColor?

    /// Makes a style.
    public init(color: DeckColor? = nil, background: DeckColor? = nil) {
        self.color = color
        self.background = background
    }

    /// True when neither colour is given (such a style is stored as none).
    public var isEmpty: Bool { color == nil && background == nil }

    /// This style with `overrides`' fields replacing its own, field by field
    /// (a state's style over its button's).
    public func merged(with overrides: ButtonStyle?) -> ButtonStyle {
        ButtonStyle(color: overrides?.color ?? color, background: overrides?.background ?? background)
    }
}

/// One of a button's states (docs/faces.md §1): what it shows instead of
/// the button's own name, icon and style while the host shows that state.
public struct ButtonState: Hashable, Sendable {
    /// 1–32 characters of `a-z 0-9 - _`, unique within the button.
    public var id: String
    /// Shown instead of the button's name; nil keeps the name.
    public var name: String?
    /// Shown instead of the button's icon; nil keeps the icon.
    public var icon: String?
    /// Replaces the button's style field by field; nil keeps it.
    public var style: ButtonStyle?

    /// Makes a state. An empty `style` is stored as nil.
    public init(id: String, name: String? = nil, icon: String? = nil, style: ButtonStyle? = nil) {
        self.id = id
        self.name = name
        self.icon = icon
        self.style = style?.isEmpty == true ? nil : style
    }

    /// The longest state id.
    public static let maximumIDLength = 32
    /// The most states a button may declare.
    public static let maximumCount = 8

    /// Why `id` cannot be a state id, or nil when it can.
    public static func idProblem(_ id: String) -> String? {
        let utf8 = id.utf8
        if utf8.isEmpty { return "a state id must not be empty" }
        if utf8.count > maximumIDLength { return "state id '\(id)' is longer than \(maximumIDLength) characters" }
        let allowed = utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }
        return allowed ? nil : "state id '\(id)' may hold only a-z, 0-9, '-' and '_'"
    }
}
