/// The text of a one-time pairing code (WEB.md §3): 8 characters of
/// Crockford's base32, shown `XXXX-XXXX`, read back as Crockford says. A
/// device sends it in `hello`'s `pairingCode`; the host (DeckHost's
/// `PairingCodes`) issues and redeems codes, the fuzz target `pairing` reads
/// any text with ``normalized(_:)``.
package enum PairingCode {
    /// Crockford's base32: digits and letters without I, L, O and U, so a code
    /// read aloud or typed from a screen is not misread.
    package static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// 8 characters: 40 bits, for 5 minutes and a few guesses a minute per address.
    package static let length = 8

    /// A new code in normal form (8 characters of ``alphabet``, no hyphen).
    package static func random(using generator: inout some RandomNumberGenerator) -> String {
        String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// `K7Q29XMD` as `K7Q2-9XMD`.
    package static func display(_ code: String) -> String {
        String(code.prefix(length / 2)) + "-" + String(code.dropFirst(length / 2))
    }

    /// The code in normal form, read as Crockford says: any case, hyphens
    /// ignored, O as 0, I and L as 1. nil when it cannot be a code.
    ///
    /// Byte by byte, in ASCII: Crockford's symbols are ASCII, and Unicode case
    /// mapping or comparison would read "ﬁ" as "FI", "ß" as "SS", "ı" as "I"
    /// and the Kelvin sign as K (found by the `pairing` fuzz target).
    package static func normalized(_ text: String) -> String? {
        var result: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 0x20 : byte
            let read: UInt8 = switch upper {
            case UInt8(ascii: "O"): UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): UInt8(ascii: "1")
            default: upper
            }
            guard alphabetBytes.contains(read), result.count < length else { return nil }
            result.append(read)
        }
        return result.count == length ? String(decoding: result, as: UTF8.self) : nil
    }

    private static let alphabetBytes = Set(alphabet.map { $0.asciiValue! })
}
