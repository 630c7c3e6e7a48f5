#if canImport(FoundationEssentials)
import FoundationEssentials  // Data, as the transport delivers lines
#else
import Foundation
#endif
import DeckProtocol
import DeckTransport
import DeckWeb

extension HostCore: WebSocketHost {
    func connectionOpened(_ connection: Connection) {
        opened(connection, peerIsLoopback: connection.peer.isLoopback)
    }

    func webSocketOpened(_ connection: Connection, localName: Bool, pageHost: String?) {
        if connection.peer.isLoopback && !localName && !services.configuration.requireToken {
            handle(.log(.info, "a page from \(connection.peer) came under the name '\(pageHost ?? "")', not one of this machine's: it needs a token or a pairing code like a device on the network (docs/security.md)"))
        }
        opened(connection, peerIsLoopback: connection.peer.isLoopback && localName)
    }

    private func opened(_ connection: Connection, peerIsLoopback: Bool) {
        let rules = Handshake.Rules(isControlSocket: connection.peer.isUnixDomain, peerIsLoopback: peerIsLoopback,
                                    requireToken: services.configuration.requireToken)
        sessions[connection.id] = Session(connection: connection, rules: rules)
        handle(.opened(connection.id, peer: connection.peer.description, host: connection.peer.host))
        if stopping { connection.close() }
    }

    func connection(_ connection: Connection, received line: Data) {
        guard let session = sessions[connection.id], !stopping, !session.reading.isHeld(.revoked) else { return }
        switch session.handshake.receive(line, rules: session.rules) {
        case .authenticate(let attempt):
            // The rules settle it before the next line is read (``HostAction/admit(_:_:issuedToken:)``).
            handle(.hello(connection.id, attempt))
        case .refuseAndClose(let error):
            handle(.helloRefused(connection.id, error))
        case .refuse(let error):
            handle(.refusedLine(connection.id, error))
        case .request(let message):
            handle(.request(connection.id, message))
        }
    }

    /// The rules accepted the connection's hello.
    func admit(_ id: ConnectionID, _ access: ClientAccess, issuedToken: String?) {
        guard let session = sessions[id] else { return }
        session.handshake.admit(access)
        session.connection.markEstablished()
        session.issuedToken = issuedToken
    }

    /// The rules refused the connection's hello: the error, then the close.
    func refuseConnection(_ id: ConnectionID, _ error: ProtocolError) {
        guard let session = sessions[id] else { return }
        session.handshake.close()
        session.closeReason = error.code.rawValue
        if let reply = try? OutboundLine(error.reply.line()) { session.connection.send(reply) }
        session.connection.closeAfterFlush(.refused)
    }

    /// The client half-closed or sent a line over the limit. Every reply
    /// owed to its earlier lines is in the pipeline by now (a request that
    /// waits for the disk pauses reading until its reply is submitted, so
    /// the end of input is not seen before), and the pipeline performs in
    /// order: closing behind them sends them all first, then `tooLarge` if
    /// that was the end, then closes.
    func connectionInputEnded(_ connection: Connection) {
        handle(.inputEnded(connection.id))
    }

    func connectionClosed(_ connection: Connection, reason: CloseReason) {
        let closeReason = sessions.removeValue(forKey: connection.id)?.closeReason
        handle(.closed(connection.id, reason: reason, closeReason: closeReason, now: UTCTime.now()))
    }

    func connectionRejected(from peer: SocketAddress, by listener: Listener) {
        perform(HostAction.log(.warning,
            "refused a connection from \(peer): already serving \(listener.limits.maxConnections) connections (busy)"))
    }

    /// Sends `welcome` once the outcomes before it are out, and from then on
    /// includes the client in broadcasts.
    func welcome(_ id: ConnectionID, id requestID: RequestID?, level: Int) {
        guard let session = sessions[id], let client = state.sessions[id], let info = client.info else { return }
        let line = live.lines.welcome(id: requestID, level: level, host: hostInfo, locked: lock.isLocked,
                                      token: session.issuedToken, faces: currentFaces(for: session))
        if let outbound = try? OutboundLine(line) { session.connection.send(outbound) }
        if !client.isControl {
            session.receivesBroadcasts = true
            sendTitles(to: id)  // what plugins show now; later changes come as broadcasts
        }
        perform(HostAction.log(.info, "\(info.name) (\(info.kind), \(info.address)) joined, protocol \(info.protocolLevel)"
            + (client.pairedName.map { ", paired as '\($0)'" } ?? "")))
        emit(.join(client: info))
    }
}
