#if canImport(FoundationEssentials)
import FoundationEssentials  // Data, as the transport delivers lines
#else
import Foundation
#endif
import DeckProtocol
import DeckTransport

extension HostCore: ConnectionHandler {
    func connectionOpened(_ connection: Connection) {
        let rules = Handshake.Rules(isControlSocket: connection.peer.isUnixDomain, peerIsLoopback: connection.peer.isLoopback,
                                    requireToken: services.configuration.requireToken)
        sessions[connection.id] = Session(connection: connection, rules: rules)
        handle(.opened(connection.id, peer: connection.peer.description))
        if stopping { connection.close() }
    }

    func connection(_ connection: Connection, received line: Data) {
        guard let session = sessions[connection.id], !stopping, !session.reading.isHeld(.revoked) else { return }
        // The credentials are asked about at the hello only (DeviceAuth):
        // the limiter is neither checked nor pruned for later lines.
        let action = session.handshake.receive(line, rules: session.rules) { hello, required in
            auth.authenticate(hello, required: required, from: connection.peer.host, now: .now)
        }
        switch action {
        case let .establish(id, access, device, pairedName, byCode):
            connection.markEstablished()
            let address = connection.peer.isUnixDomain ? "control" : connection.peer.description
            // WEB.md §3: a paired device is known by the name it was paired as, whatever its hello claims.
            let info = ClientInfo(name: pairedName ?? device.name, kind: device.kind, address: address,
                                  protocolLevel: access.level)
            if byCode, let pairedName { session.issuedToken = auth.tokens.devices.first { $0.name == pairedName }?.token }
            handle(.established(connection.id, info, pairedName: pairedName, isControl: access.isControl, id: id,
                                level: access.level, now: UTCTime.now()))
        case .refuseAndClose(let error, _):
            // A failed token or pairing code is counted by DeviceAuth already.
            perform(HostAction.log(.info, "refused a connection from \(connection.peer): \(error.code.rawValue): \(error.message)"))
            session.closeReason = error.code.rawValue
            if let reply = try? OutboundLine(error.reply.line()) { connection.send(reply) }
            connection.closeAfterFlush(.refused)
        case .refuse(let error):
            handle(.refusedLine(connection.id, error))
        case .request(let message):
            handle(.request(connection.id, message))
        }
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
