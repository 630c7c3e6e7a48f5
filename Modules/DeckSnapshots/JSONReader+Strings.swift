/// String literals: a fast path for plain ones, escapes and UTF-8 checks for the rest.
extension JSONReader {
    /// A string literal starting at the opening quote.
    mutating func rawString() throws(DocumentProblem) -> String {
        at += 1
        let start = at
        var ascii = true
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\""):
                let text = try Self.text(UnsafeBufferPointer(rebasing: bytes[start..<at]), ascii: ascii)
                at += 1
                guard let text else { throw syntax("invalid UTF-8 in a string") }
                return text
            case UInt8(ascii: "\\"):
                return try escapedString(from: start)
            case 0..<0x20:
                throw syntax("a control character inside a string")
            case 0x80...:
                ascii = false
                at += 1
            default:
                at += 1
            }
        }
        throw syntax("an unterminated string")
    }

    /// UTF-8 bytes as a string, nil when they are not valid UTF-8.
    ///
    /// `String(validating:)` is generic and slow per call; `String(decoding:)` is
    /// fast but repairs. Repairs put in U+FFFD, so only a string that differs in
    /// length or holds U+FFFD needs the strict check.
    private static func text(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) throws(DocumentProblem) -> String? {
        let text = String(decoding: utf8, as: UTF8.self)
        if ascii { return text }
        if text.utf8.count == utf8.count && !text.unicodeScalars.contains("\u{FFFD}") { return text }
        return String(validating: utf8, as: UTF8.self)
    }

    /// The slow path, for strings with escapes.
    private mutating func escapedString(from start: Int) throws(DocumentProblem) -> String {
        var utf8 = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                let text = utf8.withUnsafeBufferPointer { buffer in try? Self.text(buffer, ascii: false) }
                guard let text else { throw syntax("invalid UTF-8 in a string") }
                return text
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { break }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
                default: throw syntax("an unknown escape")
                }
            case 0..<0x20:
                throw syntax("a control character inside a string")
            default:
                utf8.append(byte)
            }
        }
        throw syntax("an unterminated string")
    }

    /// `\uXXXX` (the `\u` already read), joining a surrogate pair.
    private mutating func unicodeEscape() throws(DocumentProblem) -> String.UTF8View {
        let high = try hex4()
        var scalar = Unicode.Scalar(high)
        if (0xD800..<0xDC00).contains(high), matches("\\u") {
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw syntax("an unpaired surrogate") }
            scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        guard let scalar else { throw syntax("an unpaired surrogate") }
        return String(scalar).utf8
    }

    private mutating func hex4() throws(DocumentProblem) -> UInt32 {
        guard at + 4 <= bytes.count else { throw syntax("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }
}
