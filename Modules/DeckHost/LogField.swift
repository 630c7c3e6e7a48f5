/// Cuts what a client or a file chose — a button name, a device name — to a
/// length a log line can carry. A 500 KB button name went into the log
/// verbatim, once per line that named it; cut, the rest of the line (where,
/// by whom) still reads.
enum LogField {
    /// Characters (Unicode scalars) kept of one field.
    static let maximumCharacters = 200

    /// `text`, or its first ``maximumCharacters`` and how many were left out.
    static func cut(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard text.utf8.count > maximumCharacters, scalars.count > maximumCharacters else { return text }
        let kept = String(String.UnicodeScalarView(scalars.prefix(maximumCharacters)))
        return kept + "… (\(scalars.count - maximumCharacters) more characters)"
    }
}
