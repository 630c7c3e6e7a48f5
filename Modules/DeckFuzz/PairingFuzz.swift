import DeckProtocol

/// Pairing codes (WEB.md §3, docs/web.md: any case, hyphens ignored, O as 0,
/// I and L as 1). Properties:
///
/// - any text (the input as UTF-8) is read without a crash; text read as a
///   code holds only the characters Crockford reads, and its normal form is 8
///   characters of the alphabet that reads as itself, shown or not;
/// - a code the generator makes (seeded by the input) is 8 characters of the
///   alphabet, and reads back as itself from its shown form in any case, with
///   hyphens anywhere and look-alike letters for its digits — each chosen by
///   the input's bits.
enum PairingFuzz {
    /// What a person may type for a code: the alphabet in either case, O, I and L for digits, hyphens.
    static let readable = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzOoIiLl-".unicodeScalars)

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let code = PairingCode.normalized(text) {
            try require(text.unicodeScalars.allSatisfy(readable.contains),
                        "'\(text)' (\(bytes)) is read as the code \(code) but is not made of what Crockford reads")
            try requireNormal(code)
            try require(PairingCode.normalized(code) == code, "the normal form \(code) reads as another code")
            try require(PairingCode.normalized(PairingCode.display(code)) == code, "\(code) shown does not read as itself")
        }
        try checkIssued(bytes)
    }

    private static func requireNormal(_ code: String) throws(FuzzFinding) {
        try require(code.count == PairingCode.length && code.allSatisfy(PairingCode.alphabet.contains),
                    "'\(code)' is not 8 characters of Crockford's alphabet")
    }

    private static func checkIssued(_ bytes: [UInt8]) throws(FuzzFinding) {
        var generator = SplitMix(seed: bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
        let code = PairingCode.random(using: &generator)
        try requireNormal(code)
        let shown = PairingCode.display(code)
        try require(shown.count == 9 && Array(shown)[4] == "-", "\(code) is shown as '\(shown)', not XXXX-XXXX")
        // Each character of the shown code typed as the input's bits say (from the 9th byte on).
        var bits = BitReader(bytes.dropFirst(8))
        var typed = ""
        for character in shown where character != "-" {
            while bits.next(), typed.count < 64 { typed.append("-") }
            let lookAlikes: [Character] = switch character {
            case "0": ["0", "O", "o"]
            case "1": ["1", "I", "i", "L", "l"]
            default: [character, Character(character.lowercased())]
            }
            typed.append(lookAlikes[bits.number(below: lookAlikes.count)])
        }
        try require(PairingCode.normalized(typed) == code, "\(code), typed as '\(typed)', does not read as itself")
    }
}

/// SplitMix64: a generator whose numbers the input decides.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The bits of some bytes, in order; false once they run out.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    mutating func next() -> Bool {
        guard position < bytes.count * 8 else { return false }
        defer { position += 1 }
        return bytes[position / 8] >> (position % 8) & 1 == 1
    }

    /// A number in 0..<count from the next few bits (0 once they run out).
    mutating func number(below count: Int) -> Int {
        var value = 0
        for _ in 0..<3 { value = value << 1 | (next() ? 1 : 0) }
        return value % count
    }
}
