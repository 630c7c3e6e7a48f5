import DeckProtocol
import DeckTransport

extension HostState {
    /// What a tokens write continues.
    enum TokensChange: Equatable {
        /// `pair NAME`: the token to show once it is on disk.
        case pair(token: String)
        /// `unpair NAME`.
        case unpair
    }

    /// `pair NAME`: a new token, on disk before it is shown. Pairing a name
    /// again revokes its old token as `unpair` would.
    mutating func pair(_ name: String, id: RequestID?, from connection: ConnectionID) -> HostAction {
        let (token, undo) = auth.pair(name, now: environment.utcNow(), using: &environment.random)
        return disk(.saveTokens(auth.tokens, path: auth.path), for: connection,
                    then: .tokens(connection, id, name: name, .pair(token: token), undo: undo))
    }

    /// `unpair NAME`: the token is forgotten at once (a new hello with it is
    /// refused), then written, then that device's connections are closed.
    mutating func unpair(_ name: String, id: RequestID?, from connection: ConnectionID) -> HostAction {
        guard let undo = auth.unpair(name) else {
            return refused(ProtocolError(.notFound, "no device is paired as '\(name)'", id: id), request: "unpair", by: connection)
        }
        return disk(.saveTokens(auth.tokens, path: auth.path), for: connection,
                    then: .tokens(connection, id, name: name, .unpair, undo: undo))
    }

    /// The tokens were written (or not). Written: the connections that
    /// presented `name`'s old token stop being read and are closed behind
    /// the replies owed to them; a pair draws its pairing code now. Not
    /// written: the change is taken back and the sender gets `internal`.
    mutating func tokensSaved(_ result: Result<Void, HostError>, name: String, change: TokensChange, undo: DeviceAuth.Undo,
                              id: RequestID?, to connection: ConnectionID) -> [HostAction] {
        if case .failure(let error) = result {
            auth.undo(undo)
            guard sessions[connection] != nil else { return [] }
            return [.commit(Commit(Outcome(refusal(ProtocolError(.internal, "could not save the device tokens: \(error)", id: id),
                                                   request: change == .unpair ? "unpair" : "pair", to: connection))))]
        }
        let revoked = sessions.filter { $0.value.pairedName == name }.keys.sorted { $0.rawValue < $1.rawValue }
        var actions: [HostAction]
        let reply: Effect
        switch change {
        case .pair(let token):
            actions = [.log(.info, "paired a device as '\(name)'" + (undo.device == nil ? "" : ", replacing its old token")
                + byline(connection))]
            let code = auth.pairing.issue(for: name, now: environment.instantNow(), using: &environment.random)
            let seconds = Int(auth.pairing.lifetime.components.seconds)
            reply = .paired(connection, id, name: name, token: token, code: code,
                            expires: UTCTime.format(environment.utcNow() + seconds))
        case .unpair:
            actions = [.log(.info, "unpaired '\(name)'\(byline(connection))")]
            reply = .ok(connection, id, withRevision: false)
        }
        actions += revoked.map { .pauseReading($0, because: .revoked) }
        return actions + [.commit(Commit(Outcome([.closeRevoked(pairedAs: name), reply])))]
    }
}
