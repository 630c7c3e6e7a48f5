/// One value of a parsed JSON text. A parse writes them into one flat array in
/// document order (a "tape"): a container is followed by its elements, an
/// object's members are each a key (a string node) followed by its value.
struct JSONNode {
    enum Kind: UInt8 {
        case null, `true`, `false`, int, double
        /// A string without escapes: its bytes are its UTF-8, checked already.
        case string
        /// A string with at least one escape, checked already, decoded when read.
        case escapedString
        case array, object
    }

    var kind: Kind
    /// Strings: the offset of the first byte after the opening quote.
    /// Containers: how many elements or members they hold. Doubles:
    /// ``underflowed`` for a nonzero literal that reads as 0, else 0.
    var a: UInt32
    /// Strings: the offset of the closing quote. Containers: the index of the
    /// node after the container's last one. Numbers: the value's bit pattern.
    var b: UInt64

    /// `a` of a double whose literal is not zero but reads as 0 (`4.9e-325`).
    static let underflowed: UInt32 = 1
}

/// A strict RFC 8259 parser: bytes in, a tape of ``JSONNode``s out.
///
/// Written for hostile input: it never traps, validates UTF-8 inside strings
/// (structure outside strings is ASCII, so any other byte there is a syntax
/// error), rejects lone surrogates and numbers outside `Double`'s finite
/// range, and refuses to nest deeper than `maximumDepth`. It does not
/// recurse, so no input can overflow the calling thread's stack; the depth
/// limit also bounds the recursion of everything that walks the result
/// afterwards (encoding, deallocation).
// A tape rather than a tree of enums: one growing array instead of an array
// per object, and strings left as byte ranges until a reader asks for them
// (keys are compared as bytes, never made into Strings). That made reading a
// 12,000-button layout about twice as fast as building a tree.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    /// How errors name the input ("the line", "the document").
    let noun: String
    var position = 0
    var nodes: [JSONNode] = []
    /// The nodes of the containers whose closing bracket has not been read yet.
    private var open: [Int] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, noun: String) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.noun = noun
    }

    /// Parses the whole input: one value with optional white space around it
    /// (a final `\r\n` or `\n` included). On a throw, `nodes` still holds
    /// the members of the top-level object that were complete (see
    /// ``JSONParseResult``).
    mutating func parse() throws(JSONError) {
        // Node offsets are 32 bits; nothing this package reads comes close.
        guard bytes.count < Int(UInt32.max) else { throw .syntax("\(noun) is larger than 4 GiB", at: 0) }
        // About one node per six bytes in a layout; capped so that a huge
        // input does not reserve gigabytes before it has shown any structure.
        nodes.reserveCapacity(min(bytes.count / 6 + 4, 1 << 20))
        skipWhitespace()
        if position == bytes.count { throw failure("\(noun) is empty") }
        try parseValue()
        skipWhitespace()
        if position < bytes.count { throw failure("unexpected data after the JSON value") }
    }

    // MARK: Values

    /// Parses one value; arrays and objects under construction are kept on a
    /// heap stack (`open`), not on the thread's stack.
    // Iterative on purpose: a recursive descent needs kilobytes of stack per
    // level in debug builds, and a thread with a small stack (an event loop,
    // a dispatch worker) then overflows long before the depth limit.
    private mutating func parseValue() throws(JSONError) {
        while true {
            if try parseScalarOrOpen() { continue }
            // A complete value: count it in its container, and close every
            // container that ends right after it.
            while let container = open.last {
                nodes[container].a += 1
                skipWhitespace()
                let isObject = nodes[container].kind == .object
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    if isObject { try parseKey() }
                    break
                }
                if isObject {
                    guard peek() == UInt8(ascii: "}") else { throw failure("expected ',' or '}' after an object member") }
                } else {
                    guard peek() == UInt8(ascii: "]") else { throw failure("expected ',' or ']' after an array element") }
                }
                position += 1
                nodes[container].b = UInt64(nodes.count)
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// Reads a scalar or an empty `[]`/`{}` (false: a value is complete), or
    /// opens a container and reads the key of its first member (true: its
    /// first value comes next).
    private mutating func parseScalarOrOpen() throws(JSONError) -> Bool {
        skipWhitespace()
        guard let byte = peek() else { throw failure("\(noun) ends where a value should start") }
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            if open.count >= maximumDepth {
                throw failure("arrays and objects nest deeper than \(maximumDepth) levels")
            }
            position += 1
            let isObject = byte == UInt8(ascii: "{")
            nodes.append(JSONNode(kind: isObject ? .object : .array, a: 0, b: 0))
            skipWhitespace()
            if peek() == UInt8(ascii: isObject ? "}" : "]") {
                position += 1
                nodes[nodes.count - 1].b = UInt64(nodes.count)
                return false
            }
            open.append(nodes.count - 1)
            if isObject { try parseKey() }
            return true
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectLiteral("true", .true)
        case UInt8(ascii: "f"): try expectLiteral("false", .false)
        case UInt8(ascii: "n"): try expectLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw failure("unexpected \(Self.describe(byte)) where a value should start")
        }
        return false
    }

    /// `"key"` and the `:` after it.
    private mutating func parseKey() throws(JSONError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key in an object") }
        try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
        position += 1
    }

    private mutating func expectLiteral(_ literal: StaticString, _ kind: JSONNode.Kind) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            bytes.count - position >= count && (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected \(Self.describe(bytes[position])) where a value should start") }
        position += count
        nodes.append(JSONNode(kind: kind, a: 0, b: 0))
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONError) {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), Self.isDigit(first) else { throw failure("expected a digit in a number") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), Self.isDigit(next) { throw failure("a number may not start with 0") }
        } else {
            skipDigits()
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = peek(), Self.isDigit(digit) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), Self.isDigit(digit) else { throw failure("expected a digit in an exponent") }
            skipDigits()
        }
        let literal = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if isInteger, let value = Self.integer(literal) {
            nodes.append(JSONNode(kind: .int, a: 0, b: UInt64(bitPattern: Int64(value))))
            return
        }
        // The grammar is checked above, so this is a plain decimal literal.
        guard let value = Double(String(decoding: literal, as: UTF8.self)), value.isFinite else {
            throw .syntax("the number is too large", at: start)
        }
        // A fraction too small for a Double (1e-999999999) rounds to 0, which
        // integer fields would take as the integer 0 while refusing 1e-19.
        let underflowed = value == 0 && literal.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .contains { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }
        nodes.append(JSONNode(kind: .double, a: underflowed ? JSONNode.underflowed : 0, b: value.bitPattern))
    }

    /// An integer literal's value, or nil when it does not fit in `Int`.
    /// Accumulates negatively so that `Int.min` parses too.
    private static func integer(_ literal: UnsafeBufferPointer<UInt8>) -> Int? {
        let negative = literal.first == UInt8(ascii: "-")
        var value = 0
        for byte in literal.dropFirst(negative ? 1 : 0) {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = shifted.subtractingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            if overflowA || overflowB { return nil }
            value = next
        }
        if negative { return value }
        let (positive, overflow) = (0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) { position += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Helpers

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func failure(_ reason: String) -> JSONError {
        .syntax(reason, at: position)
    }

    /// A byte as an error message shows it: printable ASCII quoted, anything else in hex.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
