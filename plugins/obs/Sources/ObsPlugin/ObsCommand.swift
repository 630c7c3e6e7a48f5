import DeckModel
import DeckPluginKit

/// A button's command with its settings checked (docs/plugins.md, "obs").
enum ObsCommand: Equatable, Sendable {
    case scene(String)
    case previewScene(String)
    case stream
    case record
    case mute(String)
    case replaySave
    /// `width` in pixels; `every`: refresh while connected (at least a second apart), nil: on press only.
    case screenshot(source: String, width: Int, every: Duration?)

    /// The commands, as `plugin.yaml` lists them.
    static let names = ["scene", "preview-scene", "stream", "record", "mute", "replay-save", "screenshot"]
    /// Keys any command may carry: the connection's.
    static let connectionKeys: Set<String> = ["url", "password", "passwordFile"]

    /// Reads a command and its settings; the error is a sentence naming what to fix.
    init(command: String, settings: [String: DeckValue]) throws(ObsSettingsError) {
        func text(_ key: String) throws(ObsSettingsError) -> String {
            guard case .string(let value)? = settings[key], !value.isEmpty else {
                throw ObsSettingsError("\(command) needs settings.\(key): the name as OBS shows it (a string)")
            }
            return value
        }
        var allowed = Self.connectionKeys
        switch command {
        case "scene": self = .scene(try text("scene")); allowed.insert("scene")
        case "preview-scene": self = .previewScene(try text("scene")); allowed.insert("scene")
        case "stream": self = .stream
        case "record": self = .record
        case "mute": self = .mute(try text("input")); allowed.insert("input")
        case "replay-save": self = .replaySave
        case "screenshot":
            let source = try text("source")
            let width = try Self.whole(settings["width"], key: "width", default: 144, range: 8...1920)
            let every = try settings["every"].map { value throws(ObsSettingsError) in
                Duration.seconds(try Self.whole(value, key: "every", default: 1, range: 1...3600))
            }
            self = .screenshot(source: source, width: width, every: every)
            allowed.formUnion(["source", "width", "every"])
        default:
            throw ObsSettingsError("'\(command)' is not a command of obs (\(Self.names.joined(separator: ", ")))")
        }
        if let unknown = settings.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ObsSettingsError("settings.\(unknown) is not a setting of \(command) (it takes \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    private static func whole(_ value: DeckValue?, key: String, default fallback: Int,
                              range: ClosedRange<Int>) throws(ObsSettingsError) -> Int {
        let number: Int? = switch value {
        case nil: fallback
        case .int(let number)?: number
        case .double(let number)? where number.rounded() == number && abs(number) < 1e9: Int(number)
        default: nil
        }
        guard let number, range.contains(number) else {
            throw ObsSettingsError("settings.\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The request a press sends.
    var request: ObsRequest {
        switch self {
        case .scene(let name): ObsRequest(type: "SetCurrentProgramScene", data: ["sceneName": .string(name)])
        case .previewScene(let name): ObsRequest(type: "SetCurrentPreviewScene", data: ["sceneName": .string(name)])
        case .stream: ObsRequest(type: "ToggleStream")
        case .record: ObsRequest(type: "ToggleRecord")
        case .mute(let input): ObsRequest(type: "ToggleInputMute", data: ["inputName": .string(input)])
        case .replaySave: ObsRequest(type: "SaveReplayBuffer")
        case .screenshot(let source, let width, _):
            ObsRequest(type: "GetSourceScreenshot",
                       data: ["sourceName": .string(source), "imageFormat": .string("png"), "imageWidth": .int(width)])
        }
    }
}

/// A button's settings that the plugin cannot use.
struct ObsSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
