/// How many terminal columns text takes, so that boxes drawn around labels
/// line up whatever the labels are written in.
///
/// Counted per grapheme cluster (what a person sees as one character):
/// - an emoji with its variation selector (`⏱️`), a skin tone, a ZWJ
///   sequence (`👨‍👩‍👧`), a keycap (`1️⃣`) or a flag (`🇰🇷`) is 2;
/// - otherwise each code point adds its own width: 2 for East Asian Wide and
///   Fullwidth (Hangul, CJK, kana, most emoji), 0 for combining marks,
///   format characters (zero-width joiner, variation selectors) and Hangul
///   medial and final jamo, 1 for everything else.
///
/// This is what current terminals (VTE, kitty, iTerm2, Windows Terminal)
/// draw; a terminal with an older table may disagree for the newest emoji.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (grapheme cluster) takes.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1 && first.properties.isEmoji && scalars.contains(where: isEmojiJoiner) {
            return 2
        }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one code point takes on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        // Medial vowels and final consonants of conjoining Hangul: part of the syllable before them.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// What makes an emoji cluster one wide picture: the emoji variation
    /// selector, a zero-width joiner, a skin tone, a keycap, a second
    /// regional indicator.
    private static func isEmojiJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || scalar.value == 0x200D || scalar.value == 0x20E3
            || scalar.properties.isEmojiModifier || (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// `text` cut to at most `width` columns; when it had to be cut, it ends
    /// in `…` (one column) within the width, without a space before it.
    /// Never splits a character.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        while result.last?.isWhitespace == true { result.removeLast() }  // "다음…", not "다음 …"
        return result + "…"
    }

    /// `text` followed by spaces up to `width` columns (nothing added when it is already as wide).
    public static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}
