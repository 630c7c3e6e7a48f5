// Strings: the fast path for plain strings, escapes, and UTF-8 checks.
extension JSONParser {
    /// Parses a string starting at its opening quote. The common case — no
    /// escapes — validates and copies the bytes in one step.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1  // "
        let contentStart = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
                position += 1
                guard let text = String(validating: content, as: UTF8.self) else {
                    throw JSONSyntaxError(reason: "a string is not valid UTF-8", offset: start)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: contentStart, start: start) }
            if byte < 0x20 { throw failure("a control character must be escaped inside a string") }
            position += 1
        }
        throw JSONSyntaxError(reason: "a string is not closed", offset: start)
    }

    /// The slow path for strings with escapes: decodes into a buffer, then
    /// validates the whole buffer as UTF-8 (escapes always yield complete
    /// sequences, so this catches every invalid raw byte as well).
    private mutating func parseEscapedString(from contentStart: Int, start: Int) throws(JSONSyntaxError) -> String {
        var buffer = Array(bytes[contentStart..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw JSONSyntaxError(reason: "a string is not valid UTF-8", offset: start)
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                try appendEscape(to: &buffer)
            case ..<0x20:
                throw failure("a control character must be escaped inside a string")
            default:
                buffer.append(byte)
                position += 1
            }
        }
        throw JSONSyntaxError(reason: "a string is not closed", offset: start)
    }

    private mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONSyntaxError) {
        guard let escape = peek() else { throw failure("a string is not closed") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
                      bytes[position + 1] == UInt8(ascii: "u") else {
                    throw failure("a \\u escape holds half of a surrogate pair")
                }
                position += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("a \\u escape holds half of a surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("a \\u escape holds half of a surrogate pair")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("a \\u escape is not a character") }
            UTF8.encode(unicode) { buffer.append($0) }
        default:
            throw failure("unknown escape \(Self.describe(escape)) after a backslash in a string")
        }
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
