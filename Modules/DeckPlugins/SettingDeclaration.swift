/// What a plugin's manifest declares about one setting of a command
/// (docs/plugins.md, "Settings declarations"), so that a profile's mistakes
/// are found where the profile is loaded, at the key, value or word, instead
/// of only when the button is pressed.
public struct SettingDeclaration: Hashable, Sendable {
    /// The kinds of value a setting may be declared to hold.
    public enum Kind: Hashable, Sendable {
        /// Any text, at most `maxLength` characters when given.
        case string(maxLength: Int?)
        /// A whole number within the bounds given.
        case int(min: Int?, max: Int?)
        /// Any number (whole or not) within the bounds given.
        case number(min: Double?, max: Double?)
        /// `true` or `false`.
        case bool
        /// One of the texts listed.
        case choice([String])
        /// Text made of words from a list (key chords: `ctrl+shift+t`).
        case words(WordList, maxLength: Int?)
        /// Anything at all (a mapping or list the plugin reads itself).
        case any
    }

    /// The kind of value.
    public var kind: Kind
    /// True when a button of the command must give this setting.
    public var required: Bool

    /// Makes a declaration.
    public init(_ kind: Kind, required: Bool = false) {
        self.kind = kind
        self.required = required
    }

    /// The type's name as a manifest writes it (`type: words`).
    public var typeName: String {
        switch kind {
        case .string: "string"
        case .int: "int"
        case .number: "number"
        case .bool: "bool"
        case .choice: "choice"
        case .words: "words"
        case .any: "any"
        }
    }
}

/// The words a `words` setting may hold: every line of the names files
/// (the first field of a line, so a file may say more after a space; `#`
/// starts a comment line), compared without regard to letter case.
///
/// A text is split into words at any of `separators`; empty pieces between
/// separators are not words (`ctrl++` is `ctrl` and the `+` key: how a
/// plugin arranges its words is its own to check). With `characters`, any
/// single character is a word as well (`ctrl+é`).
public struct WordList: Hashable, Sendable {
    /// The names files as the manifest gives them (relative to the plugin's folder).
    public var files: [String]
    /// Every word, lowercased.
    public var words: Set<String>
    /// The words as written, for suggestions, in file order.
    public var spelled: [String]
    /// The characters that separate words.
    public var separators: Set<Character>
    /// True when any single character is a word too.
    public var characters: Bool

    /// Makes a word list.
    public init(files: [String], spelled: [String], separators: Set<Character>, characters: Bool) {
        self.files = files
        self.spelled = spelled
        self.words = Set(spelled.map { $0.lowercased() })
        self.separators = separators
        self.characters = characters
    }

    /// True when `word` is one of the words (or a single character, when allowed).
    public func contains(_ word: Substring) -> Bool {
        (characters && word.count == 1) || words.contains(word.lowercased())
    }

    /// The words of `text` with the 0-based offset of each, in Unicode scalars.
    public func split(_ text: String) -> [(word: Substring, offset: Int)] {
        var found: [(Substring, Int)] = []
        var start: String.Index?
        var startOffset = 0
        var offset = 0
        var index = text.startIndex
        while index < text.endIndex {
            if separators.contains(text[index]) {
                if let begun = start { found.append((text[begun..<index], startOffset)) }
                start = nil
            } else if start == nil {
                start = index
                startOffset = offset
            }
            // Offsets count Unicode scalars, as file positions' columns do.
            offset += text[index].unicodeScalars.count
            index = text.index(after: index)
        }
        if let begun = start { found.append((text[begun..<text.endIndex], startOffset)) }
        return found
    }
}
