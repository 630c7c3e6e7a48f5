/// Writes scalars for export: plain where YAML 1.1 reads the text back as the
/// same string, double-quoted otherwise, with wide characters (Korean, emoji)
/// written as they are rather than escaped.
enum YAMLText {
    /// Characters that cannot start a plain scalar (YAML's indicators).
    private static let indicators: Set<Unicode.Scalar> = Set("-?:,[]{}#&*!|>'\"%@`".unicodeScalars)
    private static let flowIndicators: Set<Unicode.Scalar> = Set(",[]{}".unicodeScalars)

    /// `text` as a scalar: plain when that reads back as the same string,
    /// else double-quoted. `flow` is true inside `{…}` or `[…]`, where commas,
    /// brackets and colons end a plain scalar.
    static func scalar(_ text: String, flow: Bool) -> String {
        needsQuotes(text, flow: flow) ? doubleQuoted(text) : text
    }

    /// True when a plain scalar would not read back as exactly `text`.
    static func needsQuotes(_ text: String, flow: Bool) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return true }
        if first == " " || last == " " || indicators.contains(first) { return true }
        var previous: Unicode.Scalar = " "
        for character in scalars {
            if !isPlainSafe(character) { return true }
            if flow && (character == ":" || flowIndicators.contains(character)) { return true }
            if character == "#" && previous == " " { return true }
            if character == " " && previous == ":" { return true }
            previous = character
        }
        if last == ":" { return true }
        // `yes`, `~`, `1.5`, `0x1F`, `2024-01-02`, `<<`: YAML 1.1 would not read them as strings.
        var copy = text
        return copy.withUTF8 { YAML11.classify($0) } != .string
    }

    /// Printable, and not one of the characters YAML 1.1 treats as a line
    /// break (NEL, LS, PS), nor a tab or a byte-order mark.
    private static func isPlainSafe(_ character: Unicode.Scalar) -> Bool {
        switch character.value {
        case 0x09, 0x0A, 0x0D, 0x85, 0x2028, 0x2029, 0xFEFF: false
        default: UTF8Decoding.isPrintable(character.value)
        }
    }

    /// `"…"` with YAML's escapes for what cannot appear as itself.
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for character in text.unicodeScalars {
            switch character.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x00: result += "\\0"
            case 0x07: result += "\\a"
            case 0x08: result += "\\b"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0B: result += "\\v"
            case 0x0C: result += "\\f"
            case 0x0D: result += "\\r"
            case 0x1B: result += "\\e"
            case 0x85: result += "\\N"
            case 0x2028: result += "\\L"
            case 0x2029: result += "\\P"
            case let value where value < 0x100 && !isPlainSafe(character):
                result += "\\x" + hex(value, digits: 2)
            case let value where !isPlainSafe(character):
                result += "\\u" + hex(value, digits: 4)
            default:
                result.unicodeScalars.append(character)
            }
        }
        return result + "\""
    }

    /// A double as a YAML 1.1 float that reads back as the same value: YAML
    /// 1.1 needs a `.` before an exponent (`1.0e-07`, never `1e-07`).
    static func float(_ value: Double) -> String {
        if value.isNaN { return ".nan" }
        if value.isInfinite { return value < 0 ? "-.inf" : ".inf" }
        let text = value.description
        guard let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text.contains(".") ? text : text + ".0"
        }
        let mantissa = text[..<exponent]
        return (mantissa.contains(".") ? String(mantissa) : mantissa + ".0") + text[exponent...]
    }

    /// A number of seconds: whole numbers without a fraction (`600`), others as floats.
    static func seconds(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return float(value)
    }

    /// `value` in uppercase hex, zero-padded to `digits`.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
