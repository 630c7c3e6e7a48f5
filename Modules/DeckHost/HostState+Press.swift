import DeckModel
import DeckProtocol
import DeckTransport

extension HostState {
    /// `press`: look the slot up in `head`, check the expected button, answer
    /// `ok` and hand the action on. How the action ends is an `action` event
    /// and a log line, never the reply.
    func press(page: Int, index: Int, expecting: DeckButton?, phase: PressPhase, id: RequestID?,
               from connection: ConnectionID) -> [HostAction] {
        func refuse(_ code: ErrorCode, _ message: String) -> [HostAction] {
            [refused(ProtocolError(code, message, id: id), request: "press", by: connection)]
        }
        do {
            try live.head.layout.checkRange(page: page, index: index)
        } catch {
            return refuse(.outOfRange, error.description)
        }
        let button = live.head.layout.button(page: page, index: index)
        // A press that names its button is checked first: a slot emptied
        // since the device drew it no longer holds that button (`stale`, as
        // `clearButton` with `expecting` says), so the device learns its
        // picture drifted; `empty` is for a press on a slot it saw empty.
        if let expecting, expecting != button {
            return refuse(.stale, DeckModelError.stale(page: page, index: index, expected: expecting.name).description)
        }
        guard let button else {
            return refuse(.empty, "slot \(page)/\(index) is empty; there is nothing to run")
        }
        let session = sessions[connection]
        var effects: [Effect] = [
            .ok(connection, id, withRevision: false),
            .event(.press(page: page, index: index, button: button.name, phase: phase, by: session?.info)),
            .log(.info, "pressed '\(LogField.cut(button.name))' at \(page)/\(index)" + (phase == .tap ? "" : " (\(phase.rawValue))")
                + byline(connection)),
        ]
        let request = ActionRequest(page: page, index: index, button: button, phase: phase, by: session?.info)
        if phase != .tap && session?.isControl != true {
            // deckctl's `press --down` and `--up` come on two connections, on purpose.
            effects.append(.trackHold(request, of: connection))
        }
        if case .plugin = button.action {
            // Plugins learn every phase as it is, in the order the presses came.
            effects.append(.pressPlugin(request))
        } else if phase == .up {
            // Built-in actions run on `tap` or `down`; the `up` edge is for plugins.
            effects.append(.log(.debug, "'\(LogField.cut(button.name))': the up edge of a \(button.action.kind) action does nothing"))
        } else {
            switch button.action {
            case .page(let target):
                let shown = target.resolve(from: page, pageCount: live.head.layout.pages.count)
                effects.append(.send(connection, .showPage(page: shown)))
                effects.append(.actionEnded(request, .delivered))
            case .profile(let name):
                effects.append(.switchProfile(name, press: request))
            case .run, .open:
                effects.append(.startAction(request))
            case .plugin:
                break  // handed to the plugin above
            }
        }
        return [.commit(Commit(Outcome(effects), sender: connection))]
    }
}
