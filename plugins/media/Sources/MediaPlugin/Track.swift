import DeckDBus
/// What a player is playing, as far as a button shows it, read from MPRIS
/// `Metadata` (an `a{sv}`) with every field checked.
package struct Track: Hashable, Sendable {
    /// `xesam:title`, cut to ``Track/titleCharacters``; nil when absent or not a string.
    package var title: String?
    /// `mpris:artUrl`; nil when absent, not a string or longer than a URL may be here.
    package var artURL: String?
    /// What was wrong with the metadata, one sentence each (empty when nothing was).
    package var problems: [String]

    /// The longest title a button shows; longer ones end in `…`.
    package static let titleCharacters = 64

    /// An empty track (no metadata).
    package init(title: String? = nil, artURL: String? = nil, problems: [String] = []) {
        self.title = title
        self.artURL = artURL
        self.problems = problems
    }

    /// Reads `Metadata`'s value; anything but a dictionary is a problem and an empty track.
    package init(metadata: DBusValue) {
        self.init()
        guard let entries = metadata.dictionary else {
            problems.append("Metadata is \(metadata.kindName), not a dictionary")
            return
        }
        if let value = entries["xesam:title"] {
            if let text = value.string {
                title = Track.shortened(text, cut: value.isTruncated)
            } else {
                problems.append("xesam:title is \(value.kindName), not a string")
            }
        }
        if let value = entries["mpris:artUrl"] {
            if let text = value.string, !value.isTruncated {
                artURL = text.isEmpty ? nil : text
            } else if value.string != nil {
                problems.append("mpris:artUrl is longer than \(DBusLimits.standard.stringBytes) bytes")
            } else {
                problems.append("mpris:artUrl is \(value.kindName), not a string")
            }
        }
    }

    /// A title fit for a button: control characters (a newline in a tag)
    /// become spaces, surrounding space goes, and past the bound it ends in `…`.
    static func shortened(_ text: String, cut: Bool) -> String? {
        var cleaned = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        cleaned = String(cleaned.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        if cleaned.isEmpty { return nil }
        if cut || cleaned.count > titleCharacters {
            return String(cleaned.prefix(titleCharacters - 1)) + "…"
        }
        return cleaned
    }
}

/// `PlaybackStatus` of MPRIS.
package enum PlaybackStatus: String, Hashable, Sendable {
    /// `Playing`.
    case playing = "Playing"
    /// `Paused`.
    case paused = "Paused"
    /// `Stopped`.
    case stopped = "Stopped"
}
