import DeckProtocol

/// One connection's side of PROTOCOL.md §2, as a swift-nio style state
/// machine: feed it lines, perform the action it returns. It touches no
/// socket, so tests drive it directly.
///
/// Awaiting `hello` → established (access, device, paired token name) →
/// every later line is decoded with that connection's rights.
struct Handshake {
    /// What the connection is and what the host requires of it.
    struct Rules: Equatable {
        /// The connection came through the Unix control socket.
        var isControlSocket: Bool
        /// The peer is on this machine (127.0.0.0/8, ::1).
        var peerIsLoopback: Bool
        /// `--require-token`: loopback TCP peers need a token too.
        var requireToken: Bool

        /// Whether a `hello` on this connection must carry a valid token.
        var needsToken: Bool { !isControlSocket && (requireToken || !peerIsLoopback) }
    }

    /// What the host does next.
    enum Action: Equatable {
        /// Send `welcome` (echoing `id`) and treat the connection as a client.
        /// `pairedName` is the device whose token (or pairing code: `byCode`) it presented, if any.
        case establish(id: RequestID?, access: ClientAccess, device: Device, pairedName: String?, byCode: Bool = false)
        /// Send the error, then close. `failedToken`: the refusal was a
        /// missing or wrong token (``DeviceAuth`` has counted it).
        case refuseAndClose(ProtocolError, failedToken: Bool)
        /// A request from an established connection, rights already checked.
        case request(ClientMessage)
        /// A line that could not be decoded or may not be sent: send the
        /// error, keep the connection.
        case refuse(ProtocolError)
    }

    private enum State {
        case awaitingHello
        case established(ClientAccess)
        case closed
    }

    private var state = State.awaitingHello

    /// The connection's rights once established.
    var access: ClientAccess? {
        if case .established(let access) = state { return access }
        return nil
    }

    /// Feeds one line. `authenticate` is asked at the `hello` only — once
    /// per connection — with the hello and whether it must carry valid
    /// credentials (``Rules/needsToken``); ``DeviceAuth`` answers it.
    mutating func receive(_ line: some Collection<UInt8>, rules: Rules,
                          authenticate: (Hello, _ required: Bool) -> DeviceAuth.Decision) -> Action {
        switch state {
        case .closed:
            return .refuse(ProtocolError(.handshake, "the connection is closing"))
        case .established(let access):
            do {
                return .request(try ClientMessage.decode(line, access: access))
            } catch {
                return .refuse(error)
            }
        case .awaitingHello:
            let action = hello(line, rules: rules, authenticate: authenticate)
            switch action {
            case .establish(_, let access, _, _, _): state = .established(access)
            default: state = .closed
            }
            return action
        }
    }

    /// Feeds one line with fixed answers for the credentials.
    ///
    /// - Parameters:
    ///   - attemptsBlocked: the peer's address has failed too many tokens
    ///     lately; a token check is refused at once without comparing.
    ///   - pairedName: the device a token belongs to (constant-time lookup), nil for none.
    ///   - redeem: spends a pairing code (WEB.md §3): the name it was issued for, nil for a wrong, used or expired one.
    mutating func receive(_ line: some Collection<UInt8>, rules: Rules, attemptsBlocked: Bool,
                          pairedName: (String) -> String?, redeem: (String) -> String? = { _ in nil }) -> Action {
        receive(line, rules: rules) { hello, required in
            if let code = hello.pairingCode {
                if attemptsBlocked { return .blocked }
                return redeem(code).map { .acceptedByCode(pairedName: $0) } ?? .invalidCode
            }
            if required && attemptsBlocked { return .blocked }
            let name = hello.token.flatMap(pairedName)
            guard required, name == nil else { return .accepted(pairedName: name) }
            return hello.token == nil ? .noToken : .invalidToken
        }
    }

    private func hello(_ line: some Collection<UInt8>, rules: Rules,
                       authenticate: (Hello, Bool) -> DeviceAuth.Decision) -> Action {
        let id: RequestID?
        let hello: Hello
        let level: Int
        do {
            (id, hello) = try ClientMessage.decodeHello(line)
        } catch {
            return .refuseAndClose(error, failedToken: false)
        }
        do {
            level = try ProtocolLevel.negotiate(client: hello.protocolLevel)
        } catch {
            return .refuseAndClose(ProtocolError(error.code, error.message, id: id), failedToken: false)
        }
        if hello.device.isControl && !rules.isControlSocket {
            return .refuseAndClose(ProtocolError(.unauthorized,
                "device kind 'control' is accepted only on the host's control socket; use deckctl on the host itself",
                id: id), failedToken: false)
        }
        // A pairing code is checked wherever it is sent (loopback too: it pairs the
        // device), but never on the control socket, which pairs nothing.
        var presented = hello
        if rules.isControlSocket { presented.pairingCode = nil }
        switch authenticate(presented, rules.needsToken) {
        case .blocked:
            return .refuseAndClose(ProtocolError(.unauthorized,
                "too many failed tokens from this address; wait a minute before trying again", id: id), failedToken: false)
        case .noToken:
            return .refuseAndClose(ProtocolError(.unauthorized,
                "this host needs a device token; pair the device with `deckctl pair NAME` on the host", id: id),
                failedToken: true)
        case .invalidToken:
            return .refuseAndClose(ProtocolError(.unauthorized,
                "the token is not valid (never paired, or unpaired); pair the device again with `deckctl pair NAME`", id: id),
                failedToken: true)
        case .invalidCode:
            return .refuseAndClose(ProtocolError(.unauthorized,
                "the pairing code is wrong, already used or expired; run `deckctl pair NAME` on the host for a new one",
                id: id), failedToken: true)
        case .acceptedByCode(let name):
            return .establish(id: id, access: ClientAccess(level: level, isControl: false), device: hello.device,
                              pairedName: name, byCode: true)
        case .accepted(let name) where rules.needsToken:
            return .establish(id: id, access: ClientAccess(level: level, isControl: false), device: hello.device, pairedName: name)
        case .accepted(let name):
            let access = ClientAccess(level: level, isControl: hello.device.isControl && rules.isControlSocket)
            return .establish(id: id, access: access, device: hello.device, pairedName: name)
        }
    }
}
