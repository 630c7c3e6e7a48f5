#if canImport(FoundationEssentials)
import FoundationEssentials  // Data, and JSONDecoder for the type of a refused line
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
        if stopping { connection.close() }
    }

    func connection(_ connection: Connection, received line: Data) {
        guard let session = sessions[connection.id], !stopping, !session.revoked else { return }
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
            session.info = ClientInfo(name: pairedName ?? device.name, kind: device.kind, address: address,
                                      protocolLevel: access.level)
            session.pairedName = pairedName
            if byCode, let pairedName { session.issuedToken = auth.tokens.devices.first { $0.name == pairedName }?.token }
            if let pairedName { auth.saw(pairedName, now: UTCTime.now()) }
            submit(Outcome([.welcome(connection.id, id: id, level: access.level)]))
        case .refuseAndClose(let error, _):
            // A failed token or pairing code is counted by DeviceAuth already.
            services.logger.info("refused a connection from \(connection.peer): \(error.code.rawValue): \(error.message)")
            session.closeReason = error.code.rawValue
            if let reply = try? OutboundLine(error.reply.line()) { connection.send(reply) }
            connection.closeAfterFlush(.refused)
        case .refuse(let error):
            refuseLine(line, error: error, session: session)
        case .request(let message):
            handle(message, from: session)
        }
    }

    /// The client half-closed or sent a line over the limit. Every reply
    /// owed to its earlier lines is in the pipeline by now (a request that
    /// waits for the disk pauses reading until its reply is submitted, so
    /// the end of input is not seen before), and the pipeline performs in
    /// order: closing behind them sends them all first, then `tooLarge` if
    /// that was the end, then closes.
    func connectionInputEnded(_ connection: Connection) {
        submit(Outcome([.closeAfterFlush(connection.id)]))
    }

    func connectionClosed(_ connection: Connection, reason: CloseReason) {
        run(commits.left(connection.id, now: .now))
        guard let session = sessions.removeValue(forKey: connection.id), let info = session.info else { return }
        if !stopping { submit(Outcome([.liftHolds(of: connection.id)])) }
        if let name = session.pairedName { auth.saw(name, now: UTCTime.now()) }
        let word: String
        switch reason {
        case .peerClosed, .closedByHost: word = session.closeReason ?? "closed"
        case .lineTooLong: word = "tooLarge"
        case .outputLimit: word = "slow"
        case .notEstablished: word = "handshake"
        case .socketError: word = "error"
        case .loopStopped: word = "shutdown"
        case .protocolViolation: word = "protocol"
        case .streamFailed: word = "error"
        }
        services.logger.info("\(info.name) (\(info.kind), \(info.address)) left: \(reason)"
            + (session.closeReason.map { " (\($0))" } ?? ""))
        emit(.leave(client: info, reason: word))
    }

    func connectionRejected(from peer: SocketAddress, by listener: Listener) {
        services.logger.warning("refused a connection from \(peer): already serving \(listener.limits.maxConnections) connections (busy)")
    }

    /// Sends `welcome` once the outcomes before it are out, and from then on
    /// includes the client in broadcasts.
    func welcome(_ id: ConnectionID, id requestID: RequestID?, level: Int) {
        guard let session = sessions[id], let info = session.info else { return }
        let line = live.lines.welcome(id: requestID, level: level, host: hostInfo, locked: lock.isLocked,
                                      token: session.issuedToken, faces: currentFaces(for: session))
        if let outbound = try? OutboundLine(line) { session.connection.send(outbound) }
        if !session.isControl {
            session.receivesBroadcasts = true
            sendTitles(to: id)  // what plugins show now; later changes come as broadcasts
        }
        services.logger.info("\(info.name) (\(info.kind), \(info.address)) joined, protocol \(info.protocolLevel)"
            + (session.pairedName.map { ", paired as '\($0)'" } ?? ""))
        emit(.join(client: info))
    }

    /// A line that could not be decoded or may not be sent: the error, and
    /// for a refused edit (an invalid button) the layout to everyone (§5).
    private func refuseLine(_ line: Data, error: ProtocolError, session: Session) {
        // Only short lines are looked into again: a hostile client's huge
        // garbage must not cost a second parse. An `invalid` line is well-formed
        // JSON that was decoded whole already, so its type is read at any size.
        let type = line.count <= 4096 || error.code == .invalid ? Self.requestType(of: line) : nil
        // §6 names the request kinds: a well-formed edit or press whose button
        // breaks a rule is refused by the lock first, like one that would be
        // outOfRange or stale. (`invalid` comes from decoding, which is why
        // it is checked here.)
        if error.code == .invalid, let kind = type.flatMap(RequestKind.init(rawValue:)),
           refusedByLock(kind, id: error.id, from: session) {
            return
        }
        let edit = error.code == .invalid && type.flatMap(RequestKind.init(rawValue:))?.rule.editsLayout == true
        submit(Outcome(refusal(error, request: type ?? "a request", session: session, then: edit ? .afterEdit : .none)),
               from: session)
    }

    /// The `type` of a line that failed to decode, when it has a readable one.
    private static func requestType(of line: Data) -> String? {
        struct Typed: Decodable { var type: String }
        return try? JSONDecoder().decode(Typed.self, from: line).type
    }
}
