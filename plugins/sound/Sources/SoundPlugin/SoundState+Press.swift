import DeckPluginKit

extension SoundState {
    /// A press: the change it asks for, applied to the local copy at once
    /// (the server's event confirms it), and the faces that follow.
    mutating func pressed(_ press: PluginPress) -> [Action] {
        // A tap, or the down edge of a press: once per press.
        guard press.phase != .up else { return [] }
        let alert = Action.alert(page: press.button.page, index: press.button.index)
        let who = press.button.logName
        let binding: SoundBinding
        do throws(SoundError) {
            binding = try SoundBinding.parse(command: press.command, settings: press.settings)
        } catch {
            return [.log(.warning, "\(who): \(error); the press does nothing"), alert]
        }
        guard connection == .live else {
            return [.log(.warning, "\(who): no sound server now; the press does nothing"), alert]
        }
        let targets = server.levels(of: binding.control)
        guard !targets.isEmpty else {
            return [.log(.warning, "\(who): \(Self.missing(binding.control)); the press does nothing"), alert]
        }
        var actions: [Action] = []
        switch binding.command {
        case .mute:
            // Mixed streams of one app: the first press mutes them all.
            let mute = !targets.allSatisfy(\.level.muted)
            for target in targets where target.level.muted != mute {
                actions.append(.change(target.endpoint, .mute(mute)))
            }
        case .volume:
            for target in targets {
                let channels = target.level.stepped(by: binding.step)
                if channels != target.level.channels { actions.append(.change(target.endpoint, .volume(channels))) }
            }
        }
        for case .change(let endpoint, let change) in actions { server.apply(change, to: endpoint) }
        return actions + faces()
    }

    private static func missing(_ control: SoundControl) -> String {
        switch control {
        case .defaultOutput: "the server has no default output"
        case .defaultInput: "the server has no default input"
        case .sink(let name): "there is no output device '\(name)'"
        case .source(let name): "there is no input device '\(name)'"
        case .app(let app): "'\(app)' plays nothing now"
        }
    }
}
