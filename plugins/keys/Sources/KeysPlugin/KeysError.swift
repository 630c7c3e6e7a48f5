/// Everything the keys plugin refuses or cannot do, as a sentence a user can
/// act on. Shown on the button (short form) and in the host log (this form).
public enum KeysError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A key name of `keys` that is not an xkbcommon keysym name nor an alias.
    /// `column` is 1-based, in characters of the `keys` setting.
    case unknownKey(name: String, column: Int, suggestion: String?)
    /// `keys` is empty, or a chord of it has no key (`ctrl+ +x`).
    case emptyChord(column: Int)
    /// `text` is longer than ``KeysLimits/maximumTextCharacters``.
    case textTooLong(characters: Int)
    /// A required setting is missing or has the wrong type.
    case badSetting(command: String, setting: String, expected: String)
    /// A command this plugin does not have.
    case unknownCommand(String)
    /// No keyboard back end could start: nothing is typed.
    case noBackEnd(reason: String)
    /// The back end failed to do what was asked.
    case backEnd(String)
    /// The back end cannot type now (the portal waits for consent, or lost
    /// it): `reason` says how to get it back, `title` in a few words.
    case unavailable(reason: String, title: String)
    /// A character of `text` that no keysym stands for (a lone surrogate, a control character).
    case untypable(character: String, offset: Int)

    public var description: String {
        switch self {
        case .unknownKey(let name, let column, let suggestion):
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? " (key names are xkbcommon's keysym names, e.g. ctrl, shift, a, F5, Return, media_play)"
            return "column \(column): unknown key '\(name)'\(hint)"
        case .emptyChord(let column):
            return "column \(column): a chord needs at least one key (write keys as \"ctrl+shift+t\", chords separated by spaces)"
        case .textTooLong(let characters):
            return "text has \(characters) characters; at most \(KeysLimits.maximumTextCharacters) are typed at once (split it over several buttons)"
        case .badSetting(let command, let setting, let expected):
            return "'\(command)' needs settings.\(setting) as \(expected)"
        case .unknownCommand(let command):
            return "unknown command '\(command)' (the keys plugin has press and type)"
        case .noBackEnd(let reason):
            return "no keyboard back end: \(reason)"
        case .backEnd(let message):
            return message
        case .unavailable(let reason, _):
            return reason
        case .untypable(let character, let offset):
            return "character \(offset + 1) of text (\(character)) has no keysym and cannot be typed"
        }
    }

    /// The few words shown as the button's title.
    public var title: String {
        switch self {
        case .unknownKey(let name, _, let suggestion):
            suggestion.map { "unknown key \(name): \($0)?" } ?? "unknown key \(name)"
        case .emptyChord: "empty key chord"
        case .textTooLong: "text too long"
        case .badSetting(_, let setting, _): "settings.\(setting)?"
        case .unknownCommand(let command): "no command \(command)"
        case .noBackEnd: description
        case .backEnd: "keys failed"
        case .unavailable(_, let title): title
        case .untypable: "untypable text"
        }
    }
}

/// Bounds of what one button may ask for.
public enum KeysLimits {
    /// The longest `text` a `type` button types (Unicode scalars).
    public static let maximumTextCharacters = 4096
    /// The most chords in one `keys` sequence.
    public static let maximumChords = 64
}
