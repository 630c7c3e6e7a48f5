import DeckModel
import DeckPluginKit
import DeckDBus

extension MediaState {
    mutating func ownerChanged(name: String, owner: String) -> [Action] {
        guard name.hasPrefix(Self.prefix), name.count > Self.prefix.count else { return [] }
        if owner.isEmpty {
            guard players.removeValue(forKey: name) != nil else { return [] }
            return [.log(.info, "player \(name) left the bus")]
        }
        if players[name]?.owner == owner { return [] }
        guard players[name] != nil || players.count < Self.maximumPlayers else {
            if refusedPlayers { return [] }
            refusedPlayers = true
            return [.log(.warning, "more than \(Self.maximumPlayers) MPRIS players on the bus; \(name) and later ones are ignored")]
        }
        clock += 1
        players[name] = Player(owner: owner, activity: clock)
        return [.log(.info, "player \(name) is on the bus"), .askProperties(name)]
    }

    /// Applies `PlaybackStatus` and `Metadata` from a property map; logs each new problem once per player.
    mutating func apply(_ values: [String: DBusValue], to name: String) -> [Action] {
        guard var player = players[name] else { return [] }
        var problems: [String] = []
        if let value = values["PlaybackStatus"] {
            if let text = value.string, let status = PlaybackStatus(rawValue: text) {
                if status == .playing, player.status != .playing {
                    clock += 1
                    player.activity = clock
                }
                player.status = status
            } else {
                problems.append("PlaybackStatus is \(value.string.map { "'\($0.prefix(40))'" } ?? value.kindName), not Playing, Paused or Stopped")
            }
        }
        if let value = values["Metadata"] {
            player.track = Track(metadata: value)
            problems += player.track.problems
        }
        var actions: [Action] = []
        for problem in problems where !player.reported.contains(problem) && player.reported.count < 32 {
            player.reported.insert(problem)
            actions.append(.log(.warning, "player \(name): \(problem); ignored"))
        }
        players[name] = player
        return actions
    }

    mutating func take(_ list: [PluginButton]) -> [Action] {
        var actions: [Action] = []
        buttons = list.map { button in
            let command = Result { () throws(MediaError) in try MediaCommand(command: button.command, settings: button.settings) }
            if case .failure(let error) = command {
                actions.append(.log(.warning, "\(button.logName): \(error)"))
            }
            return Button(slot: Slot(page: button.page, index: button.index), name: button.name, command: command)
        }
        // The host may have reset any face with the new layout: send every field again.
        shown = [:]
        return actions
    }

    func pressed(_ press: PluginPress) -> [Action] {
        guard press.phase != .up else { return [] }
        let slot = Slot(page: press.button.page, index: press.button.index)
        let who = press.button.logName
        let command: MediaCommand
        do {
            command = try MediaCommand(command: press.command, settings: press.settings)
        } catch {
            return [.log(.warning, "\(who): \(error)"), .alert(slot)]
        }
        guard connected else {
            return [.log(.info, "\(who): no session bus to send \(press.command) to"), .alert(slot)]
        }
        guard let name = player(for: command.player) else {
            let which = if case .named(let wanted) = command.player { "no player \(wanted)" } else { "no MPRIS player" }
            return [.log(.info, "\(who): \(which) on the bus"), .alert(slot)]
        }
        let call = command.call
        return [.call(player: name, member: call.member, arguments: call.arguments, slot: slot)]
    }

    /// The faces that changed since they were last shown.
    mutating func refresh() -> [Action] {
        var actions: [Action] = []
        for button in buttons.sorted(by: { $0.slot < $1.slot }) {
            let face = self.face(of: button)
            let previous = shown[button.slot]
            if previous != face {
                actions.append(.show(button.slot, face: face, previous: previous))
                shown[button.slot] = face
            }
        }
        return actions
    }

    func face(of button: Button) -> Face {
        guard case .success(let command) = button.command else { return Face(state: nil, title: Self.badSettingsTitle) }
        guard connected, let name = player(for: command.player), let player = players[name] else {
            return Face(state: StateID.noPlayer)
        }
        let state = switch player.status {
        case .playing?: StateID.playing
        case .paused?: StateID.paused
        case .stopped?, nil: StateID.stopped
        }
        return Face(state: state, title: player.track.title, art: player.track.artURL)
    }
}
