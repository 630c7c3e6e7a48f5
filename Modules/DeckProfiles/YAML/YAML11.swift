/// YAML 1.1 implicit typing of plain scalars, exactly as PyYAML's resolver
/// does it (its regular expressions, written out by hand: no regex engine on
/// the hot path). Both directions use it: loading types plugin settings, and
/// export quotes every string that a YAML 1.1 reader would take for something
/// else (`yes`, `~`, `1.5`, `2024-01-02`, `<<`…).
enum YAML11 {
    static let tagPrefix = "tag:yaml.org,2002:"

    /// `!!int` for `tag:yaml.org,2002:int`; other tags as they are.
    static func shortTag(_ tag: String) -> String {
        tag.hasPrefix(tagPrefix) ? "!!" + tag.dropFirst(tagPrefix.count) : tag
    }

    /// What a plain scalar resolves to.
    enum Kind: Equatable {
        case null
        case bool(Bool)
        case int
        case float
        case timestamp
        /// `<<`, the merge key.
        case merge
        /// `=`, the (unused) value key; PyYAML's safe loader refuses it.
        case value
        case string
    }

    private static let trueWords: [[UInt8]] = ["yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"].map { Array($0.utf8) }
    private static let falseWords: [[UInt8]] = ["no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"].map { Array($0.utf8) }
    private static let nullWords: [[UInt8]] = ["~", "null", "Null", "NULL"].map { Array($0.utf8) }

    /// Classifies a plain scalar's text.
    static func classify(_ text: UnsafeBufferPointer<UInt8>) -> Kind {
        guard let first = text.first else { return .null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"),
             UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "t"), UInt8(ascii: "T"),
             UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"):
            if text.count > 5 { return .string }
            if nullWords.contains(where: { $0.elementsEqual(text) }) { return .null }
            if trueWords.contains(where: { $0.elementsEqual(text) }) { return .bool(true) }
            if falseWords.contains(where: { $0.elementsEqual(text) }) { return .bool(false) }
            return .string
        case UInt8(ascii: "<"):
            return text.count == 2 && text[1] == UInt8(ascii: "<") ? .merge : .string
        case UInt8(ascii: "="):
            return text.count == 1 ? .value : .string
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if isFloat(text) { return .float }
            if isInt(text) { return .int }
            if isTimestamp(text) { return .timestamp }
            return .string
        default:
            return .string
        }
    }

    // MARK: Integers

    /// `[-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`
    static func isInt(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scan = Scan(text)
        scan.skipSign()
        guard let first = scan.peek else { return false }
        if first == UInt8(ascii: "0") {
            scan.index += 1
            if scan.atEnd { return true }
            if scan.take(UInt8(ascii: "b")) { return scan.many { $0 == 0x30 || $0 == 0x31 || $0 == 0x5F } >= 1 && scan.atEnd }
            if scan.take(UInt8(ascii: "x")) { return scan.many { isHex($0) || $0 == 0x5F } >= 1 && scan.atEnd }
            return scan.many { (0x30...0x37).contains($0) || $0 == 0x5F } >= 1 && scan.atEnd
        }
        guard (0x31...0x39).contains(first) else { return false }
        scan.index += 1
        scan.many { isDigit($0) || $0 == 0x5F }
        if scan.atEnd { return true }
        return scan.sexagesimalGroups() && scan.atEnd
    }

    /// The value of text that ``isInt(_:)`` accepted, with PyYAML's rules:
    /// underscores dropped, `0b` binary, `0x` hex, a leading `0` octal, `a:b:c` base 60.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Result<Int, YAMLScalarError> {
        parseInteger(text).exact
    }

    /// The value of text that ``isInt(_:)`` accepted as the nearest Double,
    /// also beyond 64 bits (PyYAML's integers have no bound, so
    /// `timeout: 99999999999999999999999` is a number, just a large one).
    static func integerValue(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        parseInteger(text).approximate
    }

    /// Both readings of an integer: exactly in 64 bits, and as a Double
    /// (nil only when the text is not an integer at all).
    private static func parseInteger(_ text: UnsafeBufferPointer<UInt8>) -> (exact: Result<Int, YAMLScalarError>, approximate: Double?) {
        var digits = text.filter { $0 != 0x5F }
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits.removeFirst()
        }
        let invalid = YAMLScalarError.invalidNumber(String(decoding: text, as: UTF8.self))
        var magnitude: UInt64 = 0
        var approximate = 0.0
        var overflowed = false
        func accumulate(_ digit: UInt64, base: UInt64) {
            approximate = approximate * Double(base) + Double(digit)
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: base)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            magnitude = sum
            overflowed = overflowed || overflow1 || overflow2
        }
        if digits.count >= 2, digits[0] == 0x30, digits[1] == UInt8(ascii: "b") || digits[1] == UInt8(ascii: "x") {
            let base: UInt64 = digits[1] == UInt8(ascii: "b") ? 2 : 16
            guard digits.count > 2 else { return (.failure(invalid), nil) }
            for byte in digits.dropFirst(2) {
                guard let value = hexValue(byte), value < base else { return (.failure(invalid), nil) }
                accumulate(value, base: base)
            }
        } else if digits.contains(UInt8(ascii: ":")) {
            // The first group may be as long as any decimal number (`99999999999999999999:30`),
            // so it is taken digit by digit; the others are 0 to 59 (``isInt(_:)`` checked).
            let groups = digits.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            for byte in groups[0] { accumulate(UInt64(byte - 0x30), base: 10) }
            for group in groups.dropFirst() {
                accumulate(group.reduce(0) { $0 * 10 + UInt64($1 - 0x30) }, base: 60)
            }
        } else {
            let base: UInt64 = digits.count > 1 && digits[0] == 0x30 ? 8 : 10
            guard !digits.isEmpty else { return (.failure(invalid), nil) }
            for byte in digits {
                guard let value = hexValue(byte), value < base else { return (.failure(invalid), nil) }
                accumulate(value, base: base)
            }
        }
        let value = negative ? -approximate : approximate
        let tooLarge = Result<Int, YAMLScalarError>.failure(.numberTooLarge(String(decoding: text, as: UTF8.self)))
        if overflowed { return (tooLarge, value) }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return (tooLarge, value) }
            return (.success(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)), value)
        }
        guard magnitude <= UInt64(Int.max) else { return (tooLarge, value) }
        return (.success(Int(magnitude)), value)
    }

    // MARK: Floats

    /// `[-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? | \.[0-9][0-9_]*([eE][-+][0-9]+)?
    /// | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`
    static func isFloat(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scan = Scan(text)
        let signed = scan.skipSign()
        guard let first = scan.peek else { return false }
        if first == UInt8(ascii: ".") {
            scan.index += 1
            let rest = Array(text[scan.index...])
            if ["inf", "Inf", "INF"].contains(where: { Array($0.utf8) == rest }) { return true }
            if signed { return false }
            if ["nan", "NaN", "NAN"].contains(where: { Array($0.utf8) == rest }) { return true }
            guard let digit = scan.peek, isDigit(digit) else { return false }
            scan.many { isDigit($0) || $0 == 0x5F }
            return scan.exponentToEnd()
        }
        guard isDigit(first) else { return false }
        scan.index += 1
        scan.many { isDigit($0) || $0 == 0x5F }
        if scan.take(UInt8(ascii: ".")) {
            scan.many { isDigit($0) || $0 == 0x5F }
            return scan.exponentToEnd()
        }
        guard scan.sexagesimalGroups(), scan.take(UInt8(ascii: ".")) else { return false }
        scan.many { isDigit($0) || $0 == 0x5F }
        return scan.atEnd
    }

    /// The value of text that ``isFloat(_:)`` accepted (PyYAML's rules).
    static func float(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        // The common case (`0.5`, `1.5e-3`): plain decimal text that Double reads as it is.
        if !text.contains(where: { $0 == 0x5F || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "n") || $0 == UInt8(ascii: "N") }) {
            return Double(String(decoding: text, as: UTF8.self))
        }
        var string = String(decoding: text.filter { $0 != 0x5F }, as: UTF8.self).lowercased()
        var sign = 1.0
        if let first = string.first, first == "-" || first == "+" {
            if first == "-" { sign = -1 }
            string.removeFirst()
        }
        if string == ".inf" { return sign * .infinity }
        if string == ".nan" { return .nan }
        guard string.contains(":") else { return Double(string).map { sign * $0 } }
        // Summed from the last part up, as PyYAML does, so the float is the same to the last bit.
        var value = 0.0, base = 1.0
        for part in string.split(separator: ":", omittingEmptySubsequences: false).reversed() {
            guard let number = Double(part) else { return nil }
            value += number * base
            base *= 60
        }
        return sign * value
    }

    // MARK: Timestamps

    /// `YYYY-MM-DD`, or `YYYY-M-D` with a time (`T` or spaces, `h:mm:ss`,
    /// optional fraction and zone). PyYAML reads these as dates, so export
    /// quotes them; loading keeps them as text.
    static func isTimestamp(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scan = Scan(text)
        guard scan.digits(4...4), scan.take(UInt8(ascii: "-")) else { return false }
        let start = scan.index
        if scan.digits(2...2), scan.take(UInt8(ascii: "-")), scan.digits(2...2), scan.atEnd { return true }
        scan.index = start
        guard scan.digits(1...2), scan.take(UInt8(ascii: "-")), scan.digits(1...2) else { return false }
        if !scan.take(UInt8(ascii: "T")) && !scan.take(UInt8(ascii: "t")) {
            guard scan.many({ $0 == 0x20 || $0 == 0x09 }) >= 1 else { return false }
        }
        guard scan.digits(1...2), scan.take(UInt8(ascii: ":")), scan.digits(2...2),
              scan.take(UInt8(ascii: ":")), scan.digits(2...2) else { return false }
        if scan.take(UInt8(ascii: ".")) { scan.many(isDigit) }
        if scan.atEnd { return true }
        scan.many { $0 == 0x20 || $0 == 0x09 }
        if scan.take(UInt8(ascii: "Z")) { return scan.atEnd }
        guard scan.skipSign(), scan.digits(1...2) else { return false }
        if scan.take(UInt8(ascii: ":")) { guard scan.digits(2...2) else { return false } }
        return scan.atEnd
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    static func isHex(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 0x30...0x39: UInt64(byte - 0x30)
        case 0x41...0x46: UInt64(byte - 0x41 + 10)
        case 0x61...0x66: UInt64(byte - 0x61 + 10)
        default: nil
        }
    }
}

/// A cursor for the hand-written matchers above.
private struct Scan {
    let text: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ text: UnsafeBufferPointer<UInt8>) { self.text = text }

    var atEnd: Bool { index == text.count }
    var peek: UInt8? { index < text.count ? text[index] : nil }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// Consumes a `-` or `+`; true when there was one.
    @discardableResult
    mutating func skipSign() -> Bool {
        take(UInt8(ascii: "-")) || take(UInt8(ascii: "+"))
    }

    /// Consumes bytes while `accept` holds; returns how many.
    @discardableResult
    mutating func many(_ accept: (UInt8) -> Bool) -> Int {
        let start = index
        while let byte = peek, accept(byte) { index += 1 }
        return index - start
    }

    /// Consumes between `range.lowerBound` and `range.upperBound` ASCII digits (greedy).
    mutating func digits(_ range: ClosedRange<Int>) -> Bool {
        let start = index
        while index - start < range.upperBound, let byte = peek, YAML11.isDigit(byte) { index += 1 }
        return index - start >= range.lowerBound
    }

    /// `(:[0-5]?[0-9])+`. Greedy is exact here: whatever follows a group is
    /// never a digit, so taking one digit less could not match either.
    mutating func sexagesimalGroups() -> Bool {
        var groups = 0
        while take(UInt8(ascii: ":")) {
            guard let first = peek, YAML11.isDigit(first) else { return false }
            index += 1
            if first <= UInt8(ascii: "5"), let second = peek, YAML11.isDigit(second) { index += 1 }
            groups += 1
        }
        return groups > 0
    }

    /// `([eE][-+][0-9]+)?` and then the end of the text.
    mutating func exponentToEnd() -> Bool {
        if atEnd { return true }
        guard take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) else { return false }
        guard skipSign() else { return false }
        return many(YAML11.isDigit) >= 1 && atEnd
    }
}
