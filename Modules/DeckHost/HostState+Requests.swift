import DeckModel
import DeckProtocol
import DeckTransport
import LockGate

extension HostState {
    /// Every request of an established connection, rights already checked.
    mutating func request(_ message: ClientMessage, from connection: ConnectionID) -> [HostAction] {
        // A button the device echoes is the slot's when it could not tell them apart
        // (numbers by value; below level 8 name, icon and action only: docs/faces.md §1).
        let level = sessions[connection]?.info?.protocolLevel ?? 1
        let message = ClientMessage(id: message.id, message.request.resolvingEchoedButtons(in: live.head.layout, protocolLevel: level))
        let kind = message.kind
        if let refusal = refusedByLock(kind, id: message.id, from: connection) { return [refusal] }
        let id = message.id
        switch message.request {
        case .setButton, .clearButton, .moveButton:
            return edit(message, from: connection)
        case let .press(page, index, button, phase):
            return press(page: page, index: index, expecting: button, phase: phase, id: id, from: connection)
        case .ping:
            return [.commit(Commit(Outcome([.send(connection, .pong(id: id))]), sender: connection))]
        case .hello:
            // The decoder already refuses a second hello; kept total for the compiler.
            return [refused(ProtocolError(.handshake, "this connection has already said hello", id: id),
                            request: kind.rawValue, by: connection)]
        case .status:
            return [reply([.status(connection, id)], to: connection)]
        case .profiles:
            return [reply([.profiles(connection, id)], to: connection)]
        case .subscribe:
            return [reply([.subscribe(connection), .ok(connection, id, withRevision: false), .titles(connection)], to: connection)]
        case .devices:
            return [reply([.send(connection, .devices(id: id, pairedDevices()))], to: connection)]
        case .lock:
            var effects: [Effect] = [.ok(connection, id, withRevision: false)]
            if case .broadcast(let locked, let source) = lock.lock() {
                effects += Effect.lockChanged(locked, source: source, by: sessions[connection]?.info,
                                              log: "locked\(byline(connection))")
            }
            return [reply(effects, to: connection)]
        case .unlock:
            switch lock.unlock() {
            case .stillLockedByProbe:
                return [refused(ProtocolError(.locked,
                    "the manual lock is off, but the desktop session is locked (lock probe), so the host stays locked", id: id),
                    request: "unlock", by: connection)]
            case .unlocked(let action):
                var effects: [Effect] = [.ok(connection, id, withRevision: false)]
                if case .broadcast(let locked, let source) = action {
                    effects += Effect.lockChanged(locked, source: source, by: sessions[connection]?.info,
                                                  log: "unlocked\(byline(connection))")
                }
                return [reply(effects, to: connection)]
            }
        case .snapshots(let profile):
            return [snapshots(of: profile, id: id, from: connection)]
        case .restore(let generation):
            return [restore(generation, id: id, from: connection)]
        case .export(let profile):
            guard let profile, profile != live.head.profile else { return [reply([.exportLive(connection, id)], to: connection)] }
            return [export(profile, id: id, from: connection)]
        case .useProfile(let name):
            return switchProfile(to: name, reason: "useProfile", connection: connection, id: id, press: nil)
        case .pair(let name):
            return [pair(name, id: id, from: connection)]
        case .unpair(let name):
            return [unpair(name, id: id, from: connection)]
        case .reload:
            return [reload(requestedBy: connection, id: id, plugins: true)]
        case let .restartPlugin(plugin, reset):
            return [.restartPlugin(plugin, reset: reset, for: connection, id: id)]
        case let .setFace(page, index, state, title, clear):
            return setFace(page: page, index: index, state: state, title: title, clear: clear, id: id, from: connection)
        }
    }

    /// While locked, a gated request is refused (`error locked`, then the
    /// layout to the refused sender only, §6); nil when it may go on.
    func refusedByLock(_ kind: RequestKind, id: RequestID?, from connection: ConnectionID) -> HostAction? {
        guard case .refuse(let reason) = LockGate.decide(kind, locked: lock.isLocked) else { return nil }
        return refused(ProtocolError(.locked, reason, id: id), request: kind.rawValue, by: connection, then: .toSender)
    }

    /// A line that could not be decoded or may not be sent: the error, and
    /// for a refused edit (an invalid button) the layout to everyone (§5).
    func refusedLine(_ error: ProtocolError, from connection: ConnectionID) -> [HostAction] {
        let kind = error.type.flatMap(RequestKind.init(rawValue:))
        // §6 names the request kinds: a well-formed edit or press whose button
        // breaks a rule is refused by the lock first, like one that would be
        // outOfRange or stale. (`invalid` comes from decoding, which is why
        // it is checked here.)
        if error.code == .invalid, let kind, let refusal = refusedByLock(kind, id: error.id, from: connection) {
            return [refusal]
        }
        let edit = error.code == .invalid && kind?.rule.editsLayout == true
        return [refused(error, request: error.type ?? "a request", by: connection, then: edit ? .afterEdit : .none)]
    }

    /// A change of the lock probe's answer.
    mutating func probeReported(_ result: LockProbe.Result) -> [HostAction] {
        switch result {
        case .failed(let message):
            return [.log(.warning, message + "; the lock stays as it was")]
        case .reading(let reading):
            var actions: [HostAction] = [.log(.debug, "the lock probe says \(reading)")]
            if case .broadcast(let locked, let source) = lock.probeReported(reading) {
                actions.append(.commit(Commit(Outcome(Effect.lockChanged(locked, source: source, by: nil,
                    log: locked ? "locked: the desktop session is locked" : "unlocked: the desktop session is unlocked")))))
            }
            return actions
        }
    }

    /// The `devices` reply: every paired device, by name.
    func pairedDevices() -> [PairedDeviceInfo] {
        auth.devices(connected: Set(sessions.values.compactMap { $0.info == nil ? nil : $0.pairedName }))
    }

    private func reply(_ effects: [Effect], to connection: ConnectionID) -> HostAction {
        .commit(Commit(Outcome(effects), sender: connection))
    }
}
