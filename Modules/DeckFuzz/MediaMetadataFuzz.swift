import DeckDBus
import DeckPluginKit
import MediaPlugin

/// Property of the media plugin's metadata path (plugins/media): whatever a
/// player puts in `PlaybackStatus` and `Metadata`, the plugin's machine
/// neither traps nor shows anything but a known state and a short, clean
/// title, and its log lines stay bounded per player; and the art machine
/// (``ArtState``, fed every face's `mpris:artUrl`) reads only `file:` URLs
/// and fetches only `http:`/`https:` ones.
///
/// The bytes are a small program building the values (a tag byte, then the
/// value's parts), so the fuzzer reaches nested dictionaries, wrong types,
/// cut strings and odd bytes quickly. Decoding D-Bus's wire format is
/// sd-bus's; the plugin's reader of it is run on real messages by
/// Tests/e2e/test_media.py.
enum MediaMetadataFuzz {
    static let player = MediaState.prefix + "fuzz"

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        var input = ByteProgram(bytes)
        var state = MediaState()
        _ = state.handle(.buttons([PluginButton(page: 0, index: 0, name: "Any", command: "play-pause"),
                                   PluginButton(page: 0, index: 1, name: "Named", command: "seek",
                                                settings: ["player": .string("fuzz"), "seconds": .int(5)])]))
        _ = state.handle(.connected)
        _ = state.handle(.owner(name: player, owner: ":1.1"))
        var art = ArtState()
        var logs = 0
        var round = 0
        while !input.isEmpty, round < 16 {
            round += 1
            var values: [String: DBusValue] = [:]
            values["PlaybackStatus"] = value(&input, depth: 0)
            values["Metadata"] = value(&input, depth: 0)
            let actions = input.byte() & 1 == 0
                ? state.handle(.allProperties(name: player, values: values))
                : state.handle(.propertiesChanged(sender: ":1.1", interface: "org.mpris.MediaPlayer2.Player",
                                                  changed: values, invalidated: []))
            for action in actions {
                switch action {
                case .show(_, let face, _):
                    try require(face.state == nil || MediaState.StateID.all.contains(face.state!),
                                "a face shows an unknown state \(face.state ?? "")")
                    if let title = face.title {
                        try require(title.count <= Track.titleCharacters && !title.isEmpty,
                                    "a title of \(title.count) characters is shown")
                        try require(!title.unicodeScalars.contains { $0.properties.generalCategory == .control },
                                    "a title with a control character is shown: \(title.debugDescription)")
                    }
                    try checkArt(art.show(face.art, at: .init(page: 0, index: 0)))
                case .log: logs += 1
                default: break
                }
            }
        }
        try require(logs <= 40, "\(logs) log lines for one player's metadata: each problem is to be logged once")
    }

    /// What the art machine asks for a player's URL: a read of a `file:` URL, a fetch of an http(s) one, nothing else.
    static func checkArt(_ actions: [ArtState.Action]) throws(FuzzFinding) {
        for action in actions {
            switch action {
            case .read(let url):
                try require(url.lowercased().hasPrefix("file://"), "art at \(url.debugDescription) is read as a file")
            case .fetch(let url):
                let lower = url.lowercased()
                try require(lower.hasPrefix("http://") || lower.hasPrefix("https://"),
                            "art at \(url.debugDescription) is fetched over the network")
            case .cancel, .image, .log: break
            }
        }
    }

    /// One value of the program: a tag byte, then its parts.
    static func value(_ input: inout ByteProgram, depth: Int) -> DBusValue {
        let tag = input.byte()
        switch tag % 8 {
        case 0, 1:
            let length = Int(input.byte())
            let raw = input.bytes(length)
            return .string(String(decoding: raw, as: UTF8.self), truncated: tag & 0x80 != 0)
        case 2 where depth < 6:
            var entries: [String: DBusValue] = [:]
            for _ in 0..<Int(input.byte() % 8) {
                let key = ["xesam:title", "mpris:artUrl", "xesam:artist", "mpris:length",
                           String(decoding: input.bytes(4), as: UTF8.self)][Int(input.byte() % 5)]
                entries[key] = value(&input, depth: depth + 1)
            }
            return .dictionary(entries, truncated: tag & 0x80 != 0)
        case 3 where depth < 6:
            return .array(of: "v", (0..<Int(input.byte() % 8)).map { _ in .variant(value(&input, depth: depth + 1)) }, truncated: false)
        case 4: return .bool(tag & 0x10 != 0)
        case 5: return .int64(Int64(input.byte()) << 40 | Int64(tag))
        case 6: return .double(Double(input.byte()) / 3)
        default: return .other(signature: ["ay", "h", "(ii)", "a{ii}"][Int(tag >> 6)])
        }
    }
}

/// Reads a fuzz input front to back; past its end every byte is 0.
struct ByteProgram {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, offset + count)
        defer { offset = max(offset, end) }
        return offset < end ? bytes[offset..<end] : []
    }
}
