import DeckModel
import DeckPluginKit

/// What one button shows: a title in place of its name and one of its states (docs/faces.md).
struct ObsFace: Equatable, Sendable {
    var title: String?
    var state: String?
}

/// The plugin's buttons and what OBS is doing, as a value: it says which
/// requests a press or a (re)connection sends and which faces changed, and
/// sends only changes (a flood of events ends on the newest face, no queue).
struct ObsDeck {
    private(set) var buttons: [PluginButton] = []
    private(set) var commands: [PluginButtonReference: Result<ObsCommand, ObsSettingsError>] = [:]
    var live = ObsLive()
    var status = ObsConnectionStatus.connecting
    private var shown: [PluginButtonReference: ObsFace] = [:]

    /// New buttons from the host; returns a log line for each button whose settings cannot be used.
    mutating func setButtons(_ buttons: [PluginButton]) -> [String] {
        self.buttons = buttons
        commands = [:]
        var problems: [String] = []
        for button in buttons {
            let command = Result { () throws(ObsSettingsError) in try ObsCommand(command: button.command, settings: button.settings) }
            if case .failure(let error) = command {
                problems.append("\(button.logName): \(error)")
            }
            commands[button.reference] = command
        }
        // Faces of buttons that left are not ours to keep.
        shown = shown.filter { commands[$0.key] != nil }
        return problems
    }

    /// The requests that learn OBS's state after a (re)connection or new buttons: one RequestBatch.
    var syncRequests: [ObsRequest] {
        var requests = [ObsRequest(type: "GetVersion"), ObsRequest(type: "GetSceneList"), ObsRequest(type: "GetStudioModeEnabled"),
                        ObsRequest(type: "GetStreamStatus"), ObsRequest(type: "GetRecordStatus")]
        var inputs = Set<String>()
        for case .success(.mute(let input)) in commands.values where inputs.insert(input).inserted {
            requests.append(ObsRequest(type: "GetInputMute", data: ["inputName": .string(input)]))
        }
        return requests
    }

    /// The command of a pressed button, or why it has none.
    func command(for button: PluginButtonReference, command: String, settings: [String: DeckValue]) -> Result<ObsCommand, ObsSettingsError> {
        commands[button] ?? Result { () throws(ObsSettingsError) in try ObsCommand(command: command, settings: settings) }
    }

    /// Buttons whose face differs from what was last sent, with their new face and the one before (nil: none sent).
    mutating func changedFaces(now: ContinuousClock.Instant) -> [(PluginButtonReference, ObsFace, before: ObsFace?)] {
        var changes: [(PluginButtonReference, ObsFace, before: ObsFace?)] = []
        for button in buttons {
            let reference = button.reference
            let face = self.face(of: commands[reference], now: now)
            let before = shown[reference]
            if before != face {
                shown[reference] = face
                changes.append((reference, face, before))
            }
        }
        return changes
    }

    /// Forgets what was sent, so every face goes out again (the host restarted us, say).
    mutating func forgetShown() { shown = [:] }

    private func face(of command: Result<ObsCommand, ObsSettingsError>?, now: ContinuousClock.Instant) -> ObsFace {
        guard case .success(let command)? = command else { return ObsFace(title: "bad settings") }
        switch status {
        case .connected: break
        case .unauthorised: return ObsFace(title: "OBS: password?")
        case .connecting, .unreachable: return ObsFace(title: "OBS offline")
        }
        switch command {
        case .scene(let name):
            return ObsFace(state: live.programScene == name ? "active" : nil)
        case .previewScene(let name):
            return ObsFace(state: live.studioMode && live.previewScene == name ? "active" : nil)
        case .stream:
            return Self.output(live.stream, since: live.streamSince, now: now)
        case .record:
            return Self.output(live.record, since: live.recordSince, now: now)
        case .mute(let input):
            return ObsFace(state: live.muted[input] == true ? "muted" : nil)
        case .replaySave, .screenshot:
            return ObsFace()
        }
    }

    private static func output(_ state: ObsOutputState, since: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ObsFace {
        switch state {
        case .off: ObsFace()
        case .on: ObsFace(title: since.map { elapsed(now - $0) }, state: "on")
        case .starting, .stopping: ObsFace(state: state.rawValue)
        }
    }

    /// `0:07`, `12:34`, `1:02:03`.
    static func elapsed(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.components.seconds))
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return seconds >= 3600 ? "\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
                               : "\(seconds / 60):\(two(seconds % 60))"
    }
}
