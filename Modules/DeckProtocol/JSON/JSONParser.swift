/// Why a line is not JSON, with the byte offset where the parser gave up.
struct JSONSyntaxError: Error {
    /// What was wrong, as the middle of a sentence ("expected ':' after an object key").
    var reason: String
    /// 0-based offset into the line.
    var offset: Int

    /// A sentence for the `message` of a `malformed` error.
    var sentence: String { "the line is not valid JSON (byte \(offset): \(reason))" }
}

/// A strict RFC 8259 parser over the bytes of one line.
///
/// Written for hostile input: it never traps, validates UTF-8 inside strings
/// (structure outside strings is ASCII, so any other byte there is a syntax
/// error), rejects numbers outside `Double`'s finite range, and refuses to
/// nest deeper than ``maximumDepth``. It does not recurse, so no input can
/// overflow the calling thread's stack; the depth limit also bounds the
/// recursion of everything that walks the tree afterwards (conversion,
/// deallocation).
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted. Protocol messages
    /// nest about six levels; plugin settings get the rest.
    static let maximumDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The last complete top-level `"id"` member seen, kept even when the
    /// parse fails later, so an error reply can still echo the request's id.
    private(set) var topLevelID: JSONValue?

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON text (surrounding whitespace, including a final
    /// `\r\n` or `\n`, is allowed). Returns the value or the syntax error,
    /// and the top-level `id` if one was read before any error.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Result<JSONValue, JSONSyntaxError>, id: JSONValue?) {
        var parser = JSONParser(bytes)
        do throws(JSONSyntaxError) {
            parser.skipWhitespace()
            if parser.position == bytes.count { throw parser.failure("the line is empty") }
            let value = try parser.parseValue()
            parser.skipWhitespace()
            if parser.position < bytes.count {
                throw parser.failure("unexpected data after the JSON value")
            }
            return (.success(value), parser.topLevelID)
        } catch {
            return (.failure(error), parser.topLevelID)
        }
    }

    // MARK: Values

    /// Parses a whole value without recursion: arrays and objects under
    /// construction live on heap stacks, not on the thread's stack.
    // Iterative on purpose: a recursive descent needs kilobytes of stack per
    // level in debug builds, and a thread with a small stack (an event loop,
    // a dispatch worker) then overflows long before the depth limit.
    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        var open = OpenContainers()
        while true {
            var value = try parseScalarOrOpen(&open)
            // A complete value: add it to the innermost container, and close
            // every container that ends right after it.
            while let container = open.kinds.last {
                skipWhitespace()
                if case .array = container {
                    open.arrays[open.arrays.count - 1].append(value)
                    if peek() == UInt8(ascii: ",") { position += 1; break }
                    guard peek() == UInt8(ascii: "]") else { throw failure("expected ',' or ']' after an array element") }
                    position += 1
                    open.kinds.removeLast()
                    value = .array(open.arrays.removeLast())
                } else {
                    let key = open.keys.removeLast()
                    if open.kinds.count == 1 && key == "id" { topLevelID = value }
                    open.objects[open.objects.count - 1].append((key, value))
                    if peek() == UInt8(ascii: ",") {
                        position += 1
                        open.keys.append(try parseKey())
                        break
                    }
                    guard peek() == UInt8(ascii: "}") else { throw failure("expected ',' or '}' after an object member") }
                    position += 1
                    open.kinds.removeLast()
                    value = .object(JSONObject(members: open.objects.removeLast()))
                }
            }
            if open.kinds.isEmpty { return value }
        }
    }

    /// Arrays and objects whose closing bracket has not been read yet.
    private struct OpenContainers {
        enum Kind { case array, object }
        var kinds: [Kind] = []
        var arrays: [[JSONValue]] = []
        var objects: [[(key: String, value: JSONValue)]] = []
        /// The key of the member being read, one per open object.
        var keys: [String] = []
    }

    /// Reads a scalar, or an empty `[]`/`{}`, and returns it; or opens a
    /// container and goes on until a complete value has been read.
    private mutating func parseScalarOrOpen(_ open: inout OpenContainers) throws(JSONSyntaxError) -> JSONValue {
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw failure("the line ends where a value should start") }
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if open.kinds.count >= Self.maximumDepth {
                    throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
                }
                position += 1
                skipWhitespace()
                if byte == UInt8(ascii: "[") {
                    if peek() == UInt8(ascii: "]") { position += 1; return .array([]) }
                    open.kinds.append(.array)
                    open.arrays.append([])
                } else {
                    if peek() == UInt8(ascii: "}") { position += 1; return .object(JSONObject(members: [])) }
                    open.keys.append(try parseKey())
                    open.kinds.append(.object)
                    open.objects.append([])
                }
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw failure("unexpected \(Self.describe(byte)) where a value should start")
            }
        }
    }

    /// `"key"` and the `:` after it.
    private mutating func parseKey() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key in an object") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
        position += 1
        return key
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            bytes.count - position >= count && (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected \(Self.describe(bytes[position])) where a value should start") }
        position += count
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
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
        if isInteger, let value = Self.integer(literal) { return .int(value) }
        // The grammar is checked above, so this is a plain decimal literal.
        guard let value = Double(String(decoding: literal, as: UTF8.self)), value.isFinite else {
            throw JSONSyntaxError(reason: "the number is too large", offset: start)
        }
        return .double(value)
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
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    func failure(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(reason: reason, offset: position)
    }

    /// A byte as an error message shows it: printable ASCII quoted, anything else in hex.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
