import DeckProtocol
import DeckTransport

extension HostState {
    /// A connection closed: it is forgotten, the plugin buttons it held get
    /// their `up` in pipeline order (not while stopping: every plugin is sent
    /// `shutdown` then), and a client that had joined leaves with a word
    /// for why (`closeReason`: why the host closed it, when it did).
    mutating func closed(_ connection: ConnectionID, reason: CloseReason, closeReason: String?, now: Int) -> [HostAction] {
        guard let session = sessions.removeValue(forKey: connection), let info = session.info else { return [] }
        var actions: [HostAction] = stopping ? [] : [.commit(Commit(Outcome([.liftHolds(of: connection)])))]
        if let name = session.pairedName { auth.saw(name, now: now) }
        let word: String = switch reason {
        case .peerClosed, .closedByHost: closeReason ?? "closed"
        case .lineTooLong: "tooLarge"
        case .outputLimit: "slow"
        case .notEstablished: "handshake"
        case .socketError, .streamFailed: "error"
        case .loopStopped: "shutdown"
        case .protocolViolation: "protocol"
        }
        actions += [.log(.info, "\(info.name) (\(info.kind), \(info.address)) left: \(reason)" + (closeReason.map { " (\($0))" } ?? "")),
                    .perform(.event(.leave(client: info, reason: word)))]
        return actions
    }
}
