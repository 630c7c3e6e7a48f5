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
        /// Where the value's first character is, when every character of the
        /// text is written as itself on one line (a plain or quoted scalar
        /// without escapes), so character N of the text is at column + N;
        /// nil when that cannot be known (problems then point at the value).
        package var textStart: YAMLMark?
    }

    /// A problem at `mark` in this site's file.
    package func problem(_ message: String, at mark: YAMLMark) -> FileProblem {
        FileProblem(file: file, line: mark.line, column: mark.column, message: message)
    }
}

extension ProfileReader {
    /// The site of a plugin action's settings (the button name is filled in
    /// by the button reader).
    func settingsSite(plugin: String, command: String, commandNode: YAMLNode, settings: Pair?,
                      action: YAMLNode, values: [String: DeckValue]?) -> SettingsSite {
        var entries: [SettingsSite.Entry] = []
        if let node = settings?.value, node.kind == .mapping {
            var seen: Set<String> = []
            for (key, value) in document.pairs(node) where key.kind == .scalar {
                let name = document.text(key)
                guard seen.insert(name).inserted, let read = values?[name] else { continue }
                entries.append(SettingsSite.Entry(key: name, keyMark: key.mark, value: read, valueMark: value.mark,
                                                  textStart: textStart(of: value)))
            }
        }
        return SettingsSite(file: document.file, button: "", plugin: plugin, command: command, commandMark: commandNode.mark,
                            settingsMark: settings?.key.mark ?? action.mark, entries: entries)
    }

    /// The column of a scalar's first character, when its text maps onto
    /// the source one character per column (see ``SettingsSite/Entry/textStart``).
    private func textStart(of node: YAMLNode) -> YAMLMark? {
        guard node.kind == .scalar, !node.isAlias else { return nil }
        let text = document.text(node)
        guard !text.contains(where: \.isNewline) else { return nil }
        switch node.style {
        case .plain:
            return node.mark
        case .singleQuoted where !text.contains("'"), .doubleQuoted where !text.contains("\"") && !text.contains("\\"):
            return YAMLMark(line: node.mark.line, column: node.mark.column + 1)
        default:
            return nil
        }
    }
}
