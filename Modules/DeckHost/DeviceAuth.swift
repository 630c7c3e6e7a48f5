import DeckProtocol

/// Who may connect (PROTOCOL.md §9, SECURITY.md): the paired devices'
/// tokens and the failed-attempt limit, asked once per connection — at its
/// `hello` — and changed by `pair` and `unpair`; and when each paired device
/// was last seen, for `devices`. Loop-confined; no I/O (the host writes
/// ``tokens`` to ``path``), so tests drive it directly.
///
/// Pairing codes (issue 14) belong here too: a one-time code in a `hello`
/// is checked by ``authenticate(_:required:from:now:)`` and gets a decision
/// like a token does, so the handshake and the host need no new state.
struct DeviceAuth {
    /// What ``authenticate(_:required:from:now:)`` decided.
    enum Decision: Equatable {
        /// Let it in; `pairedName` is the device whose token it presented, if any.
        case accepted(pairedName: String?)
        /// The address failed too many times lately: refused without comparing.
        case blocked
        /// A token was needed and none was given (counted as a failure).
        case noToken
        /// The token given belongs to no paired device (counted as a failure).
        case invalidToken
        /// A pairing code issued for `pairedName` was spent: the device is paired.
        case acceptedByCode(pairedName: String)
        /// The pairing code is wrong, used or expired (counted as a failure).
        case invalidCode
    }

    /// How to take one `pair` or `unpair` back when its write failed.
    struct Undo: Equatable {
        var name: String
        var device: PairedDevice?
    }

    /// Where the tokens are saved (`STATE/tokens.json`).
    let path: String
    /// The paired devices.
    private(set) var tokens: TokenStore
    /// One-time pairing codes (WEB.md §3), issued by `pair`.
    var pairing: PairingCodes
    private var limiter: FailedAttemptLimiter
    /// When each paired device last joined or left (UTC seconds), since the
    /// host started: kept in memory only, and across `unpair` and a new `pair`.
    private var lastSeen: [String: Int] = [:]

    init(tokens: TokenStore, path: String, pairingLifetime: Duration = .seconds(300),
         limiter: FailedAttemptLimiter = FailedAttemptLimiter()) {
        self.tokens = tokens
        self.path = path
        self.pairing = PairingCodes(lifetime: pairingLifetime)
        self.limiter = limiter
    }

    /// The credentials of one `hello` from `address` (the peer's host part).
    /// `required`: the connection must present a valid one (a remote peer,
    /// or `--require-token`). Without `required` a token is still looked up,
    /// so `unpair` can close the connections that presented it.
    mutating func authenticate(_ hello: Hello, required: Bool, from address: String,
                               now: ContinuousClock.Instant) -> Decision {
        // A code counts against the address whether or not a token was needed: failures share one budget.
        if let code = hello.pairingCode {
            if limiter.isBlocked(address, now: now) { return .blocked }
            if let name = pairing.redeem(code, now: now) { return .acceptedByCode(pairedName: name) }
            limiter.recordFailure(address, now: now)
            return .invalidCode
        }
        if required, limiter.isBlocked(address, now: now) { return .blocked }
        let name = hello.token.flatMap(tokens.name(forToken:))
        guard required, name == nil else { return .accepted(pairedName: name) }
        limiter.recordFailure(address, now: now)
        return hello.token == nil ? .noToken : .invalidToken
    }

    /// A new token for `name`, replacing its old one.
    mutating func pair(_ name: String, now: Int) -> (token: String, undo: Undo) {
        var generator = SystemRandomNumberGenerator()  // getrandom(2), as for tokens
        return pair(name, now: now, using: &generator)
    }

    /// A new token for `name` from `generator`, replacing its old one.
    mutating func pair(_ name: String, now: Int, using generator: inout some RandomNumberGenerator) -> (token: String, undo: Undo) {
        let undo = Undo(name: name, device: tokens.devices.first { $0.name == name })
        return (tokens.pair(name, now: now, using: &generator), undo)
    }

    /// Forgets `name`'s token at once (a new `hello` with it is refused); nil
    /// when no device has that name.
    mutating func unpair(_ name: String) -> Undo? {
        pairing.revoke(name)
        let undo = Undo(name: name, device: tokens.devices.first { $0.name == name })
        return tokens.unpair(name) ? undo : nil
    }

    /// Takes a change back (its write failed).
    mutating func undo(_ undo: Undo) {
        tokens.restore(undo.name, to: undo.device)
    }

    /// The device paired as `name` joined or left at `now` (UTC seconds).
    mutating func saw(_ name: String, now: Int) {
        lastSeen[name] = now
    }

    /// The `devices` reply: every paired device by name, with when it was
    /// last seen and whether one of `connected` (paired names of the
    /// established sessions) is it.
    func devices(connected: Set<String>) -> [PairedDeviceInfo] {
        tokens.devices.sorted { $0.name < $1.name }.map { device in
            PairedDeviceInfo(name: device.name, pairedAt: device.created, lastSeen: lastSeen[device.name].map(UTCTime.format),
                             connected: connected.contains(device.name))
        }
    }

    /// How many addresses have failures remembered.
    var trackedAddresses: Int { limiter.trackedAddresses }
}
