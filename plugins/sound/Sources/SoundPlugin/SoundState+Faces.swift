extension SoundState {
    /// The face every live button should show now, as actions for those
    /// that differ from what was last shown: a flood of server events that
    /// ends where it began sends nothing.
    mutating func faces() -> [Action] {
        guard connection == .live || connection.isWaiting else { return [] }
        var actions: [Action] = []
        for entry in entries {
            let face = face(of: entry)
            let slot = Slot(page: entry.button.page, index: entry.button.index)
            if shown[slot] != face {
                shown[slot] = face
                actions.append(.show(page: slot.page, index: slot.index, face))
            }
        }
        return actions
    }

    private func face(of entry: Entry) -> SoundFace {
        let binding: SoundBinding
        switch entry.binding {
        case .failure: return SoundFace(state: nil, title: SoundFace.badSettingsTitle)
        case .success(let good): binding = good
        }
        guard connection == .live else { return SoundFace(state: .away, title: SoundFace.noServerTitle) }
        let levels = server.levels(of: binding.control).map(\.level)
        guard !levels.isEmpty else {
            let title = if case .app = binding.control { SoundFace.noStreamTitle } else { SoundFace.noDeviceTitle }
            return SoundFace(state: .away, title: title)
        }
        // Several streams of one app: muted only when all are, the loudest one's level.
        let muted = levels.allSatisfy(\.muted)
        let state: SoundFace.State = muted ? .muted : .unmuted
        switch binding.command {
        case .mute: return SoundFace(state: state, title: nil)
        case .volume: return SoundFace(state: state, title: "\(levels.map(\.percent).max() ?? 0)%")
        }
    }
}

extension SoundState.Connection {
    var isWaiting: Bool {
        if case .waiting = self { return true }
        return false
    }
}

extension SoundServer {
    /// The endpoints a control names now and their levels: one device, the
    /// app's streams, or none when it is not there.
    func levels(of control: SoundControl) -> [(endpoint: SoundEndpoint, level: SoundLevel)] {
        switch control {
        case .defaultOutput:
            guard let name = defaultSink else { return [] }
            return levels(of: .sink(name))
        case .defaultInput:
            guard let name = defaultSource else { return [] }
            return levels(of: .source(name))
        case .sink(let name):
            return sinks.filter { $0.name == name }.prefix(1).map { (.sink(name), $0.level) }
        case .source(let name):
            return sources.filter { $0.name == name }.prefix(1).map { (.source(name), $0.level) }
        case .app(let app):
            return streams.filter { $0.belongs(to: app) }.map { (.stream($0.index), $0.level) }
        }
    }

    /// Applies a change the plugin asked for before the server confirms
    /// it, so a second press right after the first toggles back.
    mutating func apply(_ change: SoundState.SoundChange, to endpoint: SoundEndpoint) {
        func update(_ level: inout SoundLevel) {
            switch change {
            case .mute(let muted): level.muted = muted
            case .volume(let channels): level.channels = channels
            }
        }
        switch endpoint {
        case .sink(let name):
            for position in sinks.indices where sinks[position].name == name { update(&sinks[position].level) }
        case .source(let name):
            for position in sources.indices where sources[position].name == name { update(&sources[position].level) }
        case .stream(let index):
            for position in streams.indices where streams[position].index == index { update(&streams[position].level) }
        }
    }
}
