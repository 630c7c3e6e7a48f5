import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckProtocol
import DeckSnapshots
import DeckTransport

/// What a plugin said, as the plugin manager reports it on the loop.
enum PluginInput: Equatable {
    /// A `log` message (or the manager's own line about a plugin).
    case log(LogLevel, String)
    /// A button's title changed (the manager matched the plugin's `setTitle` to buttons).
    case title(DeckSlot, String?)
    /// A plugin's status changed (`setStatus`, a start, an exit).
    case status(PluginStatus)
    /// `setState`, `setImage`, `showAlert` or `showOk`, for the buttons its target matched.
    case face(plugin: String, [PluginButton], PluginMessage)
    /// A plugin's process ended: the faces it set fall back.
    case ended(String)
    /// What became of a press handed to the plugin manager (``Effect/pressPlugin(_:)``).
    case pressResult(ActionRequest, PluginPressResult)
    /// A press reached the shell when no plugin manager was there (the host
    /// is stopping, or the plugins have not started yet).
    case pressWithoutManager(ActionRequest)
}

extension HostState {
    /// Feeds the face table and turns what it decided into actions; a
    /// refusal is logged (a control client's is its reply instead: `refused`).
    mutating func feedFaces(_ input: FaceInput, refused: inout (code: ErrorCode, message: String)?) -> [HostAction] {
        var actions: [HostAction] = []
        for action in faces.handle(input) {
            switch action {
            case let .refuse(code, message):
                // A control client's reply is the sentence alone (its request named it); a log line says whose.
                refused = (code, message)
                if case let .change(_, _, source) = input, !source.isControl {
                    actions.append(.log(.warning, "\(source): \(message)"))
                }
            case .scheduleFrame(let end):
                actions.append(.armTimer(.faceFrame, after: end == .frame ? Self.faceFrame : .zero))
            default:
                actions.append(.face(action))
            }
        }
        return actions
    }

    /// Feeds the face table an input no client waits on.
    mutating func feedFaces(_ input: FaceInput) -> [HostAction] {
        var refused: (code: ErrorCode, message: String)?
        return feedFaces(input, refused: &refused)
    }

    /// `setFace` (docs/faces.md §5): `ok`, or the table's refusal as the error.
    mutating func setFace(page: Int, index: Int, state: String?, title: String?, clear: Bool, id: RequestID?,
                          from connection: ConnectionID) -> [HostAction] {
        let slot = DeckSlot(page: page, index: index)
        var changes: [FaceChange] = clear ? [.clear] : []
        if let state { changes.append(.state(state)) }
        if let title { changes.append(.title(title)) }
        let who = sessions[connection]?.info?.name ?? "a control client"
        var refusal: (code: ErrorCode, message: String)?
        let actions = feedFaces(.change(slot, changes, from: .control(who)), refused: &refusal)
        if let refusal {
            return actions + [refused(ProtocolError(refusal.code, refusal.message, id: id), request: "setFace", by: connection)]
        }
        return actions + [.commit(Commit(Outcome([.ok(connection, id, withRevision: false),
                                                  .log(.info, "face of \(slot) set\(byline(connection))")]),
                                         sender: connection))]
    }

    /// A plugin's message or the manager's news about it.
    mutating func plugin(_ input: PluginInput) -> [HostAction] {
        switch input {
        case let .log(level, message):
            return [.log(level, message)]
        case let .title(slot, title):
            // The title is part of the face: the table tells level-7 and level-8 devices each their way.
            return feedFaces(.change(slot, [.title(title)], from: .plugin("")))
        case .status(let status):
            return [.perform(.event(.plugin(status)))]
        case let .face(plugin, buttons, message):
            let change: FaceChange
            switch message {
            case .setState(_, let state): change = .state(state)
            case .setImage(_, let image): change = .image(image)
            case .showAlert: change = .flash(.alert)
            case .showOk: change = .flash(.ok)
            case .setTitle, .ready, .log, .setStatus: return []  // titles come through the plugin manager
            }
            return buttons.flatMap { button in
                feedFaces(.change(DeckSlot(page: button.page, index: button.index), [change], from: .plugin(plugin)))
            }
        case .ended(let plugin):
            return feedFaces(.pluginEnded(plugin))
        case let .pressResult(request, result):
            let ended = Self.pressEnded(request, result)
            guard case let .plugin(id, _, _) = request.button.action, result != .delivered else { return ended }
            // The press reached no plugin: the device's only word of it is the
            // alert (docs/faces.md §3), as when a plugin refuses a press itself.
            return ended + feedFaces(.change(DeckSlot(page: request.page, index: request.index), [.flash(.alert)],
                                             from: .plugin(id)))
        case .pressWithoutManager(let request):
            guard case let .plugin(id, _, _) = request.button.action else { return [] }
            return Self.actionEnded(request, .pluginUnavailable(plugin: id), detail: "is stopping with the host")
        }
    }

    /// A follow's line for its button's face (the face table decides; an
    /// unknown state id is refused there with a log line).
    mutating func followSaid(_ spec: FollowSpec, _ line: FollowLine) -> [HostAction] {
        let change: FaceChange = switch line {
        case .state(let id): .state(id)
        case .title(let title): .title(title)
        case .alert: .flash(.alert)
        case .ok: .flash(.ok)
        }
        return feedFaces(.change(DeckSlot(page: spec.page, index: spec.index), [change], from: .follow(spec.command)))
    }

    /// A state reached the disk and is performed: it becomes `committed`
    /// (its lines encoded once, with the installed plugins' hold slots) and
    /// the faces follow the new layout, before its `ok` and layout lines,
    /// which carry them. The plugins whose buttons changed and the follow
    /// commands follow it once those lines are written
    /// (``followCommitted()``): ~30 K instructions an edit that no reply
    /// waits for (docs/performance.md, issue 28).
    mutating func committed(_ state: LiveState, written: DeckSnapshots.SnapshotInfo?) -> [HostAction] {
        let old = live.committed
        var actions: [HostAction] = []
        do {
            try live.commit(state, written: written, holdSlots: plugins.holdSlots(in: state.layout))
        } catch {
            actions.append(.log(.error, "could not encode the layout of revision \(state.revision): \(error)"))
        }
        actions += feedFaces(.layoutChanged(state.layout))
        // One follow for all of a turn's commits (a batch performs several), of the last.
        if followOwed == nil { actions.append(.followCommittedAfterReplies) }
        followOwed = (followOwed ?? false) || old.profile != state.profile || old.source != state.source
        return actions
    }

    /// The plugins whose buttons changed and the follow commands follow the
    /// committed layout — all follows (a new `source` or profile since the
    /// last follow: the profile went live again) or, after edits, only those
    /// whose button changed.
    mutating func followCommitted() -> [HostAction] {
        guard let restart = followOwed else { return [] }
        followOwed = nil
        let layout = live.committed.layout
        return pluginsFollow(layout) + followsFollow(layout, restart: restart)
    }
}
