import DeckProtocol
import DeckTransport

// A connection's first line: the credentials of its `hello` (PROTOCOL.md §2,
// §9; SECURITY.md), decided here so the failed-attempt limit, pairing codes
// and tokens change only inside the rules.

extension HostState {
    /// A decoded `hello`: its credentials asked of ``DeviceAuth`` once, then
    /// the connection admitted (its `welcome` in pipeline order) or refused and closed.
    mutating func hello(_ attempt: Handshake.Attempt, from connection: ConnectionID) -> [HostAction] {
        guard let session = sessions[connection] else { return [] }
        let decision = auth.authenticate(attempt.hello, required: attempt.rules.needsToken, from: session.host,
                                         now: environment.instantNow())
        switch Handshake.verdict(attempt, decision) {
        case .refuse(let error, _):
            // A failed token or pairing code is counted by DeviceAuth already.
            return refuseConnection(connection, error)
        case let .establish(id, access, device, pairedName, byCode):
            // WEB.md §3: a paired device is known by the name it was paired as, whatever its hello claims.
            let address = attempt.rules.isControlSocket ? "control" : session.peer
            let info = ClientInfo(name: pairedName ?? device.name, kind: device.kind, address: address,
                                  protocolLevel: access.level)
            // A device that paired with a code gets its new token in its welcome.
            let token = byCode ? pairedName.flatMap { name in auth.tokens.devices.first { $0.name == name }?.token } : nil
            sessions[connection]?.establish(info, pairedName: pairedName, isControl: access.isControl)
            if let pairedName { auth.saw(pairedName, now: environment.utcNow()) }
            return [.admit(connection, access, issuedToken: token),
                    .commit(Commit(Outcome([.welcome(connection, id: id, level: access.level)])))]
        }
    }

    /// A hello refused: logged, the error sent, the connection closed once it is written.
    func refuseConnection(_ connection: ConnectionID, _ error: ProtocolError) -> [HostAction] {
        let peer = sessions[connection]?.peer ?? "a client"
        return [.log(.info, "refused a connection from \(peer): \(error.code.rawValue): \(error.message)"),
                .refuseConnection(connection, error)]
    }
}
