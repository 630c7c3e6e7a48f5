// Strings: checked once while parsing (UTF-8, escapes, surrogates), decoded
// only when a reader asks for them.
extension JSONParser {
    /// Checks a string starting at its opening quote and records its range.
    mutating func parseString() throws(JSONError) {
        let start = position
        position += 1  // "
        let contentStart = position
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                nodes.append(JSONNode(kind: escaped ? .escapedString : .string,
                                      a: UInt32(truncatingIfNeeded: contentStart), b: UInt64(position)))
                position += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try skipEscape()
            } else if byte < 0x20 {
                throw failure("a control character must be escaped inside a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                guard let length = Self.scalarLength(bytes, at: position) else {
                    throw .syntax("a string is not valid UTF-8", at: start)
                }
                position += length
            }
        }
        throw .syntax("a string is not closed", at: start)
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629:
    /// no overlong forms, no surrogates, nothing above U+10FFFF), or nil.
    private static func scalarLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard bytes.count - index >= length, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }

    /// Checks one escape, the backslash at `position`.
    private mutating func skipEscape() throws(JSONError) {
        position += 1
        guard let escape = peek() else { throw failure("a string is not closed") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let scalar = try hexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
                      bytes[position + 1] == UInt8(ascii: "u") else {
                    throw failure("a \\u escape holds half of a surrogate pair")
                }
                position += 2
                guard (0xDC00...0xDFFF).contains(try hexQuad()) else { throw failure("a \\u escape holds half of a surrogate pair") }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("a \\u escape holds half of a surrogate pair")
            }
        default:
            throw failure("unknown escape \(Self.describe(escape)) after a backslash in a string")
        }
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(bytes[position]) else { throw failure("a \\u escape needs four hex digits") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The text of a string the parser checked, escapes decoded.
    ///
    /// Each escape is at least as long as what it stands for (`\n` is two
    /// bytes for one, `\u00e9` six for two), so the result fits in the raw
    /// length. Written to stay in bounds whatever it is given; Swift
    /// re-checks the UTF-8 when it makes the string.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: raw.count) { out in
            var index = 0
            var count = 0
            func put(_ byte: UInt8) {
                if count < out.count { out[count] = byte; count += 1 }
            }
            func hex(at start: Int) -> UInt32? {
                guard raw.count - start >= 4 else { return nil }
                var value: UInt32 = 0
                for offset in 0..<4 {
                    guard let digit = hexDigit(raw[start + offset]) else { return nil }
                    value = value << 4 | digit
                }
                return value
            }
            while index < raw.count {
                let byte = raw[index]
                guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                    put(byte)
                    index += 1
                    continue
                }
                let escape = raw[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex(at: index) else { continue }
                    index += 4
                    if (0xD800...0xDBFF).contains(scalar), index + 1 < raw.count, raw[index] == UInt8(ascii: "\\"),
                       raw[index + 1] == UInt8(ascii: "u"), let low = hex(at: index + 2), (0xDC00...0xDFFF).contains(low) {
                        index += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    if let unicode = Unicode.Scalar(scalar) { UTF8.encode(unicode) { put($0) } }
                default: put(escape)
                }
            }
            return count
        }
    }
}
