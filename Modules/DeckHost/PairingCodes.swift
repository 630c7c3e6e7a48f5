import DeckProtocol

/// The one-time pairing codes of WEB.md §3, as a value (their text is
/// DeckProtocol's `PairingCode`): `deckctl pair NAME` issues one beside the
/// token; a `hello` that carries it is paired as NAME
/// and gets the token in its `welcome`. A code works once, for ``lifetime``;
/// it is not a token, so a photo of the QR code is useless once it has been
/// used or has expired. Time comes in (`now`), so tests drive expiry directly.
struct PairingCodes {
    private struct Entry {
        var name: String
        var expires: ContinuousClock.Instant
    }

    /// How long a code is good for (5 minutes; shorter in tests).
    let lifetime: Duration
    /// By code in normal form (8 characters, no hyphen).
    private var entries: [String: Entry] = [:]

    init(lifetime: Duration = .seconds(300)) {
        self.lifetime = lifetime
    }

    /// Codes not yet used or expired (at `now`).
    func count(at now: ContinuousClock.Instant) -> Int {
        entries.values.filter { $0.expires > now }.count
    }

    /// A new code for `name`, shown as `XXXX-XXXX`. An earlier code for the
    /// same name stops working: pairing again replaces that name's token.
    mutating func issue(for name: String, now: ContinuousClock.Instant,
                        using generator: inout some RandomNumberGenerator) -> String {
        prune(now)
        entries = entries.filter { $0.value.name != name }
        var code: String
        repeat {
            code = PairingCode.random(using: &generator)
        } while entries[code] != nil
        entries[code] = Entry(name: name, expires: now + lifetime)
        return PairingCode.display(code)
    }

    /// The name a code was issued for, once: the code is spent by this call.
    /// nil for a code that is wrong, used or expired.
    mutating func redeem(_ given: String, now: ContinuousClock.Instant) -> String? {
        prune(now)
        guard let code = PairingCode.normalized(given), let entry = entries.removeValue(forKey: code) else { return nil }
        return entry.name
    }

    /// Forgets the codes of `name` (unpaired).
    mutating func revoke(_ name: String) {
        entries = entries.filter { $0.value.name != name }
    }

    private mutating func prune(_ now: ContinuousClock.Instant) {
        entries = entries.filter { $0.value.expires > now }
    }
}
