import DeckProtocol

/// One connection's side of PROTOCOL.md §2, as a swift-nio style state
/// machine: feed it lines, perform the action it returns. It touches no
/// socket, so tests drive it directly.
///
/// Awaiting `hello` → authenticating (the rules decide the credentials:
/// ``HostState``, ``DeviceAuth``) → established (access) → every later line
/// is decoded with that connection's rights.
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

    /// A `hello` that decoded, whose level was negotiated and whose kind
    /// may connect here: what the rules need to decide its credentials.
    struct Attempt: Equatable {
        /// The hello's request id, echoed by `welcome` or the refusal.
        var id: RequestID?
        /// The hello as presented (a pairing code on the control socket is dropped: it pairs nothing).
        var hello: Hello
        /// The negotiated protocol level.
        var level: Int
        /// What the connection is.
        var rules: Rules
    }

    /// What the rules decided of an ``Attempt`` (``verdict(_:_:)``).
    enum Verdict: Equatable {
        /// Send `welcome` (echoing `id`) and treat the connection as a client.
        /// `pairedName` is the device whose token (or pairing code: `byCode`) it presented, if any.
        case establish(id: RequestID?, access: ClientAccess, device: Device, pairedName: String?, byCode: Bool = false)
        /// Send the error, then close. `failedToken`: the refusal was a
        /// missing or wrong token (``DeviceAuth`` has counted it).
        case refuse(ProtocolError, failedToken: Bool)
    }

    /// What the host does next.
    enum Action: Equatable {
        /// A hello to authenticate: the rules decide (``HostInput/hello(_:_:)``)
        /// and the shell performs their verdict with ``admit(_:)`` or ``close()``.
        case authenticate(Attempt)
        /// Send the error, then close (a first line that is no valid hello).
        case refuseAndClose(ProtocolError)
        /// A request from an established connection, rights already checked.
        case request(ClientMessage)
        /// A line that could not be decoded or may not be sent: send the
        /// error, keep the connection.
        case refuse(ProtocolError)
    }

    private enum State {
        case awaitingHello
        /// The hello went to the rules; their verdict comes back through ``admit(_:)`` or ``close()``.
        case authenticating
        case established(ClientAccess)
        case closed
    }

    private var state = State.awaitingHello

    /// The connection's rights once established.
    var access: ClientAccess? {
        if case .established(let access) = state { return access }
        return nil
    }

    /// Feeds one line. A hello is decoded here and its credentials decided
    /// by the rules, once per connection (``DeviceAuth`` is theirs).
    mutating func receive(_ line: some Collection<UInt8>, rules: Rules) -> Action {
        switch state {
        case .closed:
            return .refuse(ProtocolError(.handshake, "the connection is closing"))
        case .authenticating:
            // The shell settles a hello before it reads the next line; a line here is a bug, refused, not a crash.
            return .refuse(ProtocolError(.handshake, "wait for the welcome before sending more"))
        case .established(let access):
            do {
                return .request(try ClientMessage.decode(line, access: access))
            } catch {
                return .refuse(error)
            }
        case .awaitingHello:
            let action = hello(line, rules: rules)
            state = if case .authenticate = action { .authenticating } else { .closed }
            return action
        }
    }

    /// The rules accepted the hello ``receive(_:rules:)`` handed out: later
    /// lines are decoded with `access`.
    mutating func admit(_ access: ClientAccess) {
        guard case .authenticating = state else { return }
        state = .established(access)
    }

    /// The rules refused the hello: every later line is refused.
    mutating func close() {
        state = .closed
    }

    /// The verdict on `attempt` once its credentials were decided (pure:
    /// ``HostState`` asks ``DeviceAuth`` and calls this).
    static func verdict(_ attempt: Attempt, _ decision: DeviceAuth.Decision) -> Verdict {
        let id = attempt.id
        let level = attempt.level
        let hello = attempt.hello
        switch decision {
        case .blocked:
            return .refuse(ProtocolError(.unauthorized,
                "too many failed tokens from this address; wait a minute before trying again", id: id), failedToken: false)
        case .noToken:
            return .refuse(ProtocolError(.unauthorized,
                "this host needs a device token; pair the device with `deckctl pair NAME` on the host", id: id),
                failedToken: true)
        case .invalidToken:
            return .refuse(ProtocolError(.unauthorized,
                "the token is not valid (never paired, or unpaired); pair the device again with `deckctl pair NAME`", id: id),
                failedToken: true)
        case .invalidCode:
            return .refuse(ProtocolError(.unauthorized,
                "the pairing code is wrong, already used or expired; run `deckctl pair NAME` on the host for a new one",
                id: id), failedToken: true)
        case .acceptedByCode(let name):
            return .establish(id: id, access: ClientAccess(level: level, isControl: false), device: hello.device,
                              pairedName: name, byCode: true)
        case .accepted(let name) where attempt.rules.needsToken:
            return .establish(id: id, access: ClientAccess(level: level, isControl: false), device: hello.device, pairedName: name)
        case .accepted(let name):
            let access = ClientAccess(level: level, isControl: hello.device.isControl && attempt.rules.isControlSocket)
            return .establish(id: id, access: access, device: hello.device, pairedName: name)
        }
    }

    private func hello(_ line: some Collection<UInt8>, rules: Rules) -> Action {
        let id: RequestID?
        let hello: Hello
        let level: Int
        do {
            (id, hello) = try ClientMessage.decodeHello(line)
        } catch {
            return .refuseAndClose(error)
        }
        do {
            level = try ProtocolLevel.negotiate(client: hello.protocolLevel)
        } catch {
            return .refuseAndClose(ProtocolError(error.code, error.message, id: id))
        }
        if hello.device.isControl && !rules.isControlSocket {
            return .refuseAndClose(ProtocolError(.unauthorized,
                "device kind 'control' is accepted only on the host's control socket; use deckctl on the host itself",
                id: id))
        }
        // A pairing code is checked wherever it is sent (loopback too: it pairs the
        // device), but never on the control socket, which pairs nothing.
        var presented = hello
        if rules.isControlSocket { presented.pairingCode = nil }
        return .authenticate(Attempt(id: id, hello: presented, level: level, rules: rules))
    }
}
