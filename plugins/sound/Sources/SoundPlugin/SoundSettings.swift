import DeckModel

/// What one button of the sound plugin does: its command, what it controls
/// and, for `volume`, by how much.
public struct SoundBinding: Hashable, Sendable {
    /// The plugin's commands (plugin.yaml).
    public enum Command: String, CaseIterable, Hashable, Sendable {
        /// Toggles the mute of what the button controls.
        case mute
        /// Changes its volume by ``SoundBinding/step`` percent.
        case volume
    }

    /// The command.
    public var command: Command
    /// What the button controls.
    public var control: SoundControl
    /// Percent points a `volume` press adds (negative: lowers); 0 for `mute`.
    public var step: Int

    /// The step a `volume` button without `step` uses.
    public static let defaultStep = 5

    /// Makes a binding.
    public init(command: Command, control: SoundControl, step: Int = 0) {
        self.command = command
        self.control = control
        self.step = step
    }

    /// Reads a button's command and settings (docs/plugins.md, "sound").
    ///
    /// Keys: `target` (`output`, the default, or `input`), `device` (a sink
    /// or source name, instead of the default one), `app` (the playback
    /// streams of an application, by `application.name` or binary), and for
    /// `volume` `step` (a whole number of percent points, -100…100, not 0).
    public static func parse(command: String, settings: [String: DeckValue]) throws(SoundError) -> SoundBinding {
        guard let parsed = Command(rawValue: command) else {
            throw .badSettings("unknown command '\(command)' (expected mute or volume)")
        }
        let known: Set<String> = parsed == .volume ? ["target", "device", "app", "step"] : ["target", "device", "app"]
        if let unknown = settings.keys.sorted().first(where: { !known.contains($0) }) {
            throw .badSettings("unknown setting '\(unknown)' (\(parsed.rawValue) takes \(known.sorted().joined(separator: ", ")))")
        }
        let input: Bool
        switch settings["target"] {
        case nil, .string("output"): input = false
        case .string("input"): input = true
        default: throw .badSettings("target must be output or input")
        }
        let control: SoundControl
        switch (settings["device"], settings["app"]) {
        case (nil, nil):
            control = input ? .defaultInput : .defaultOutput
        case (.string(let name)?, nil) where !name.isEmpty:
            control = input ? .source(name) : .sink(name)
        case (nil, .string(let name)?) where !name.isEmpty:
            guard !input else { throw .badSettings("app controls playback streams: it takes target: output (or no target)") }
            control = .app(name)
        case (.some, .some):
            throw .badSettings("give device or app, not both")
        case (.some, nil):
            throw .badSettings("device must be a device name (pactl list short sinks / sources)")
        case (nil, .some):
            throw .badSettings("app must be an application name or binary (firefox, mpv)")
        }
        var step = 0
        if parsed == .volume {
            switch settings["step"] {
            case nil: step = defaultStep
            case .int(let value)?: step = value
            case .double(let value)? where value.rounded() == value && abs(value) <= 100: step = Int(value)
            default: throw .badSettings("step must be a whole number of percent points, such as 5 or -5")
            }
            guard step != 0, (-100...100).contains(step) else {
                throw .badSettings("step must be between -100 and 100 and not 0 (it is \(step))")
            }
        }
        return SoundBinding(command: parsed, control: control, step: step)
    }
}

/// What a sound button controls.
public enum SoundControl: Hashable, Sendable {
    /// The server's default sink (the speakers or headphones in use).
    case defaultOutput
    /// The server's default source (the microphone in use).
    case defaultInput
    /// The sink of this name.
    case sink(String)
    /// The source of this name.
    case source(String)
    /// Every playback stream (sink input) of this application.
    case app(String)
}
