/// Standard base64 (RFC 4648 §4, `+/` and `=` padding), the encoding of
/// images in plugin lines and TCP `buttonFace` messages (docs/faces.md).
///
/// The package's own codec because the modules a device app reuses stay
/// without Foundation.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// `bytes` in base64 with padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let chunk = min(3, input.count - index)
            var value = UInt32(input[index]) << 16
            if chunk > 1 { value |= UInt32(input[index + 1]) << 8 }
            if chunk > 2 { value |= UInt32(input[index + 2]) }
            for position in 0..<4 {
                out.append(position <= chunk ? alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Why a text is not base64: a sentence naming the first bad place.
    package struct DecodingError: Error, Hashable, CustomStringConvertible {
        /// What is wrong and where.
        package let description: String
    }

    /// The bytes `text` encodes. Padding may be left off; anything outside
    /// the alphabet (whitespace too), a misplaced `=`, or a length no
    /// encoder makes throws. Stops with an error once the output would pass
    /// `limit` bytes, so a huge text costs no more than the limit.
    package static func decode(_ text: String, limit: Int = .max) throws(DecodingError) -> [UInt8] {
        var utf8 = Array(text.utf8)
        var padding = 0
        while utf8.last == UInt8(ascii: "="), padding < 2 {
            utf8.removeLast()
            padding += 1
        }
        // A character outside the alphabet (a space, a line break) is named
        // before the length it also breaks: that is the mistake to fix.
        if padding > 0, (utf8.count + padding) % 4 != 0 {
            throw foreignCharacter(in: utf8) ?? DecodingError(description: "the padding '=' does not end a group of four characters")
        }
        if utf8.count % 4 == 1 {
            throw foreignCharacter(in: utf8)
                ?? DecodingError(description: "its length (\(text.utf8.count) characters) is not one a base64 encoder makes")
        }
        let size = utf8.count / 4 * 3 + max(0, utf8.count % 4 - 1)
        if size > limit {
            throw DecodingError(description: "it decodes to \(size) bytes, more than \(limit)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, byte) in utf8.enumerated() {
            let value = values[Int(byte)]
            guard value != 0xFF else { throw notBase64(byte, at: offset) }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return out
    }

    private static func foreignCharacter(in utf8: [UInt8]) -> DecodingError? {
        utf8.firstIndex { values[Int($0)] == 0xFF }.map { notBase64(utf8[$0], at: $0) }
    }

    private static func notBase64(_ byte: UInt8, at offset: Int) -> DecodingError {
        let shown = byte == UInt8(ascii: "=") ? "'='" : byte < 0x20 || byte >= 0x7F ? "byte \(byte)" : "'\(Character(Unicode.Scalar(byte)))'"
        return DecodingError(description: "\(shown) at character \(offset + 1) is not base64")
    }
}
