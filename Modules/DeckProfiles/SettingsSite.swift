import DeckModel

/// Where one plugin button's `settings` are written in a profile file, so
/// that a check against the plugin's declared settings (which this module
/// does not know) can point at the exact key, value or word.
///
/// The reader records one for every `{plugin: …}` action it reads, even in a
/// file with other problems; a button used twice through an alias is one site.
package struct SettingsSite: Hashable, Sendable {
    /// The file, as problems name it.
    package var file: String
    /// The button's name, for messages ("" when it has none).
    package var button: String
    /// The plugin id and command as written.
    package var plugin: String
    package var command: String
    /// Where `command:`'s value is, for a command the plugin does not list.
    package var commandMark: YAMLMark
    /// Where a missing setting is reported: the `settings` key, or the action.
    package var settingsMark: YAMLMark
    /// Each top-level setting, in the order written.
    package var entries: [Entry]

    /// One `key: value` of the settings mapping.
    package struct Entry: Hashable, Sendable {
        package var key: String
        package var keyMark: YAMLMark
        package var value: DeckValue
        package var valueMark: YAMLMark
        /// How the value was written, for ``textStart``.
        package var style: YAMLNode.Style
        /// True when the value was written as an alias (`*name`): its text is elsewhere.
        package var isAlias: Bool

        /// Where the value's first character is, when every character of the
        /// text is written as itself on one line (a plain or quoted scalar
        /// without quotes or escapes inside), so character N of the text is at
        /// column + N; nil when that cannot be known (problems then point at
        /// the value). Worked out only when a check needs it, so reading a
        /// profile pays nothing for it.
        package var textStart: YAMLMark? {
            guard case .string(let text) = value, !isAlias, !text.contains(where: \.isNewline) else { return nil }
            switch style {
            case .plain:
                return valueMark
            case .singleQuoted where !text.contains("'"), .doubleQuoted where !text.contains("\"") && !text.contains("\\"):
                return YAMLMark(line: valueMark.line, column: valueMark.column + 1)
            default:
                return nil
            }
        }
    }

    /// A problem at `mark` in this site's file.
    package func problem(_ message: String, at mark: YAMLMark) -> FileProblem {
        FileProblem(file: file, line: mark.line, column: mark.column, message: message)
    }
}

extension ProfileReader {
    /// The site of a plugin action's settings, from the entries the settings
    /// reader recorded (the button name is filled in by the button reader).
    func settingsSite(plugin: String, command: String, commandNode: YAMLNode, settings: Pair?,
                      action: YAMLNode) -> SettingsSite {
        SettingsSite(file: document.file, button: "", plugin: plugin, command: command, commandMark: commandNode.mark,
                     settingsMark: settings?.key.mark ?? action.mark, entries: settings == nil ? [] : settingsEntries)
    }
}
