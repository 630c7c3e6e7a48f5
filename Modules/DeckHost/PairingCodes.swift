/// The one-time pairing codes of WEB.md §3, as a value: `deckctl pair NAME`
/// issues one beside the token; a `hello` that carries it is paired as NAME
/// and gets the token in its `welcome`. A code works once, for ``lifetime``;
/// it is not a token, so a photo of the QR code is useless once it has been
/// used or has expired. Time comes in (`now`), so tests drive expiry directly.
struct PairingCodes {
    /// Crockford's base32: digits and letters without I, L, O and U, so a code
    /// read aloud or typed from a screen is not misread.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// 8 characters: 40 bits, for 5 minutes and a few guesses a minute per address.
    static let length = 8

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
            code = String((0..<Self.length).map { _ in Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &generator)] })
        } while entries[code] != nil
        entries[code] = Entry(name: name, expires: now + lifetime)
        return Self.display(code)
    }

    /// The name a code was issued for, once: the code is spent by this call.
    /// nil for a code that is wrong, used or expired.
    mutating func redeem(_ given: String, now: ContinuousClock.Instant) -> String? {
        prune(now)
        guard let code = Self.normalized(given), let entry = entries.removeValue(forKey: code) else { return nil }
        return entry.name
    }

    /// Forgets the codes of `name` (unpaired).
    mutating func revoke(_ name: String) {
        entries = entries.filter { $0.value.name != name }
    }

    private mutating func prune(_ now: ContinuousClock.Instant) {
        entries = entries.filter { $0.value.expires > now }
    }

    /// `K7Q29XMD` as `K7Q2-9XMD`.
    static func display(_ code: String) -> String {
        String(code.prefix(length / 2)) + "-" + String(code.dropFirst(length / 2))
    }

    /// The code in normal form, read as Crockford says: any case, hyphens
    /// ignored, O as 0, I and L as 1. nil when it cannot be a code.
    static func normalized(_ text: String) -> String? {
        var result = ""
        for character in text.uppercased() where character != "-" {
            let read: Character
            switch character {
            case "O": read = "0"
            case "I", "L": read = "1"
            default: read = character
            }
            guard alphabet.contains(read) else { return nil }
            result.append(read)
        }
        return result.count == length ? result : nil
    }
}
