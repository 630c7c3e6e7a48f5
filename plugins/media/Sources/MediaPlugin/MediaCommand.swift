import DeckModel
import DeckDBus

/// A media button's command and settings, checked: what a press does and
/// which player it follows.
package struct MediaCommand: Hashable, Sendable {
    /// What a press asks of the player.
    package enum Kind: Hashable, Sendable {
        /// `play-pause`: `PlayPause`.
        case playPause
        /// `next`: `Next`.
        case next
        /// `previous`: `Previous`.
        case previous
        /// `stop`: `Stop`.
        case stop
        /// `seek` by `seconds` (negative: back): `Seek` with microseconds.
        case seek(seconds: Double)
    }

    /// Which player a button follows (`player:` in its settings).
    package enum Player: Hashable, Sendable {
        /// `any` (the default): the most recently active player.
        case any
        /// One player by its MPRIS name (`mpv`, `vlc`, `spotify`): the bus
        /// name `org.mpris.MediaPlayer2.NAME`, or one of its instances
        /// (`org.mpris.MediaPlayer2.NAME.instance123`).
        case named(String)
    }

    /// The press's action.
    package var kind: Kind
    /// The followed player.
    package var player: Player

    /// The commands a manifest lists, in order.
    package static let names = ["play-pause", "next", "previous", "stop", "seek"]

    /// The longest seek a button may ask for (an hour either way).
    package static let maximumSeekSeconds = 3600.0

    /// Checks a button's command and settings; the error is a sentence
    /// naming the bad setting, for the log and (shortened) the button.
    package init(command: String, settings: [String: DeckValue]) throws(MediaError) {
        switch command {
        case "play-pause": kind = .playPause
        case "next": kind = .next
        case "previous": kind = .previous
        case "stop": kind = .stop
        case "seek":
            let seconds: Double
            switch settings["seconds"] {
            case .int(let number)?: seconds = Double(number)
            case .double(let number)?: seconds = number
            case nil: throw MediaError("seek needs settings.seconds (a number of seconds, negative to go back)")
            case let other?: throw MediaError("settings.seconds must be a number of seconds, not \(MediaCommand.describe(other))")
            }
            guard seconds.isFinite, seconds != 0, abs(seconds) <= MediaCommand.maximumSeekSeconds else {
                throw MediaError("settings.seconds must be a non-zero number from -3600 to 3600, not \(seconds)")
            }
            kind = .seek(seconds: seconds)
        default:
            throw MediaError("unknown command '\(command)' (expected \(MediaCommand.names.joined(separator: ", ")))")
        }
        switch settings["player"] {
        case nil, .string("any")?: player = .any
        case .string(let name)? where MediaCommand.isPlayerName(name): player = .named(name)
        case let other?:
            throw MediaError("settings.player must be any or a player's MPRIS name such as mpv or vlc, not \(MediaCommand.describe(other))")
        }
        for key in settings.keys where key != "player" && key != "seconds" {
            throw MediaError("unknown setting '\(key)' (media buttons take player, and seek also seconds)")
        }
        if case .seek = kind {} else if settings["seconds"] != nil {
            throw MediaError("settings.seconds is for seek only")
        }
    }

    /// The MPRIS method and arguments a press calls.
    package var call: (member: String, arguments: [DBusValue]) {
        switch kind {
        case .playPause: ("PlayPause", [])
        case .next: ("Next", [])
        case .previous: ("Previous", [])
        case .stop: ("Stop", [])
        case .seek(let seconds): ("Seek", [.int64(Int64((seconds * 1_000_000).rounded()))])
        }
    }

    /// A setting's value for a message: `"text"`, `2.5`, `a list`.
    static func describe(_ value: DeckValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let text): "\"\(text.prefix(40))\""
        case .array: "a list"
        case .object: "a mapping"
        }
    }

    /// A bus-name element: letters, digits, `_`, `-` and dots between them.
    static func isPlayerName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && !name.hasPrefix(".") && !name.hasSuffix(".")
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
    }
}
