import DeckModel
import DeckTransport

extension HostState {
    /// A change of the held plugin buttons, reached in pipeline order.
    enum HoldChange: Equatable {
        /// A device's `down` or `up` of a button.
        case track(ActionRequest, of: ConnectionID)
        /// The connection left: every plugin button it held gets its `up`.
        case left(ConnectionID)
        /// The host locked: every held plugin button gets its `up`.
        case liftAll
    }

    /// Tracks a press, or sends each `up` that ``HeldButtons`` owes with a
    /// log line that says why. PROTOCOL.md says both edges reach the action;
    /// it is silent on a device that leaves in between (docs/plugins.md,
    /// "Presses"). Nothing is lifted while the host stops: every plugin is
    /// sent `shutdown` then.
    mutating func holdsChanged(_ change: HoldChange) -> [HostAction] {
        let ups: [ActionRequest]
        let why: (String) -> String
        switch change {
        case let .track(request, connection):
            holds.track(request, of: connection)
            return []
        case .left(let connection):
            guard !stopping else { return [] }
            ups = holds.left(connection)
            why = { who in "\(who) left while holding it down" }
        case .liftAll:
            ups = holds.liftAll()
            why = { who in "the host locked while \(who) held it down" }
        }
        return ups.flatMap { request -> [HostAction] in
            guard case .plugin = request.button.action else { return [] }
            return [.log(.info, "'\(LogField.cut(request.button.name))' lifted at \(request.page)/\(request.index): "
                        + why(request.by?.name ?? "the device")),
                    .perform(.pressPlugin(request))]
        }
    }
}
