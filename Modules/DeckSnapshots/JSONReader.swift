import DeckModel

/// A JSON reader for snapshot documents: a cursor over bytes with typed reads.
///
/// `JSONDecoder` needed ~105–190 ms for a 12,000-button snapshot, more than
/// the host's whole start budget; this reads the same document in a few
/// milliseconds. Strict JSON (RFC 8259): strings must be valid UTF-8, control
/// characters must be escaped, nothing may follow the top-level value.
/// Errors carry the path of the offending value (`layout.pages[3].buttons[0].name`).
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    private var path: [PathPart] = []

    /// How deep plugin settings may nest: deep enough for any real setting,
    /// shallow enough that a hostile file cannot overflow the stack.
    static let maximumDepth = 256

    enum PathPart {
        case key(String)
        case index(Int)
    }

    /// Runs `body` with a reader over `bytes`, then checks that only white
    /// space follows what it read.
    static func read<Result>(_ bytes: [UInt8], _ body: (inout JSONReader) throws(DocumentProblem) -> Result) throws(DocumentProblem) -> Result {
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(DocumentProblem) -> Result in
                var reader = JSONReader(bytes: buffer)
                let value = try body(&reader)
                reader.skipSpace()
                guard reader.at == buffer.count else { throw reader.syntax("nothing after the end of the document") }
                return value
            }
        }
        return try outcome.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        path.reserveCapacity(8)
    }

    // MARK: Problems

    /// Where the reader is, as `layout.pages[3].buttons[0]`.
    var location: String {
        var text = ""
        for part in path {
            switch part {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    func syntax(_ expected: String) -> DocumentProblem {
        DocumentProblem(reason: "its JSON does not parse (\(expected) at byte \(at))")
    }

    /// "has the wrong type" when a valid value of another type is here, the
    /// syntax error when what is here is not JSON at all. Call it with the
    /// reader still at the start of the value.
    func wrongType() -> DocumentProblem {
        var probe = self
        do throws(DocumentProblem) {
            _ = try probe.value()
        } catch {
            return error
        }
        return DocumentProblem(reason: "field '\(location)' has the wrong type")
    }

    func missing(_ key: String) -> DocumentProblem {
        fieldProblem(key, "is missing")
    }

    /// A problem with the member `key` of the object the reader has just read.
    func fieldProblem(_ key: String, _ what: String) -> DocumentProblem {
        DocumentProblem(reason: "field '\(location.isEmpty ? "" : location + ".")\(key)' \(what)")
    }

    func invalid(_ why: String) -> DocumentProblem {
        DocumentProblem(reason: "'\(location)' is invalid: \(why)")
    }

    // MARK: Structure

    /// Calls `member` for each key of an object, with the reader on its value.
    /// The member must read or skip the value.
    mutating func object(_ member: (inout JSONReader, String) throws(DocumentProblem) -> Void) throws(DocumentProblem) {
        guard next() == UInt8(ascii: "{") else { throw wrongType() }
        at += 1
        if next() == UInt8(ascii: "}") {
            at += 1
            return
        }
        while true {
            guard next() == UInt8(ascii: "\"") else { throw syntax("a key expected") }
            let key = try rawString()
            guard next() == UInt8(ascii: ":") else { throw syntax("':' expected") }
            at += 1
            path.append(.key(key))
            try member(&self, key)
            path.removeLast()
            switch next() {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "}"): at += 1; return
            default: throw syntax("',' or '}' expected")
            }
        }
    }

    /// Calls `element` for each item of an array, with the reader on it.
    mutating func array(_ element: (inout JSONReader, Int) throws(DocumentProblem) -> Void) throws(DocumentProblem) {
        guard next() == UInt8(ascii: "[") else { throw wrongType() }
        at += 1
        if next() == UInt8(ascii: "]") {
            at += 1
            return
        }
        var index = 0
        while true {
            path.append(.index(index))
            try element(&self, index)
            path.removeLast()
            index += 1
            switch next() {
            case UInt8(ascii: ","): at += 1
            case UInt8(ascii: "]"): at += 1; return
            default: throw syntax("',' or ']' expected")
            }
        }
    }

    /// Consumes `null` if that is what comes next.
    mutating func null() -> Bool {
        guard next() == UInt8(ascii: "n"), matches("null") else { return false }
        at += 4
        return true
    }

    mutating func string() throws(DocumentProblem) -> String {
        guard next() == UInt8(ascii: "\"") else { throw wrongType() }
        return try rawString()
    }

    /// nil for `null` (`decodeIfPresent` semantics).
    mutating func optionalString() throws(DocumentProblem) -> String? {
        null() ? nil : try string()
    }

    mutating func bool() throws(DocumentProblem) -> Bool {
        if next() == UInt8(ascii: "t"), matches("true") {
            at += 4
            return true
        }
        if next() == UInt8(ascii: "f"), matches("false") {
            at += 5
            return false
        }
        throw wrongType()
    }

    /// A number: `.int` when it is written as an integer that fits, else `.double`.
    mutating func number() throws(DocumentProblem) -> DeckValue {
        guard let first = next(), first == UInt8(ascii: "-") || isDigit(first) else { throw wrongType() }
        let start = at
        var integral = true
        while at < bytes.count {
            let byte = bytes[at]
            if isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                at += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                integral = false
                at += 1
            } else {
                break
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        guard isJSONNumber(text) else { throw syntax("a malformed number") }
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw syntax("a number out of range") }
        return .double(value)
    }

    mutating func int() throws(DocumentProblem) -> Int {
        let start = at
        guard case .int(let value) = try number() else {
            at = start
            throw wrongType()
        }
        return value
    }

    mutating func double() throws(DocumentProblem) -> Double {
        switch try number() {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: throw wrongType()
        }
    }

    /// Any JSON value as a `DeckValue` (plugin settings).
    mutating func value(depth: Int = 0) throws(DocumentProblem) -> DeckValue {
        guard depth < Self.maximumDepth else { throw invalid("nested more than \(Self.maximumDepth) deep") }
        switch next() {
        case UInt8(ascii: "{"):
            var members: [String: DeckValue] = [:]
            try object { reader, key throws(DocumentProblem) in members[key] = try reader.value(depth: depth + 1) }
            return .object(members)
        case UInt8(ascii: "["):
            var items: [DeckValue] = []
            try array { reader, _ throws(DocumentProblem) in items.append(try reader.value(depth: depth + 1)) }
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try rawString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            // Not bool(): its wrong-type path probes with value(), which must never recurse.
            guard matches("true") || matches("false") else { throw syntax("a value expected") }
            return .bool(try bool())
        case UInt8(ascii: "n"):
            guard null() else { throw syntax("a value expected") }
            return .null
        case let byte? where byte == UInt8(ascii: "-") || isDigit(byte):
            return try number()
        case .some, nil:
            throw syntax("a value expected")
        }
    }

    /// Reads and drops any value (an unknown key).
    mutating func skip() throws(DocumentProblem) {
        _ = try value()
    }

    // MARK: Bytes

    /// The next byte after white space, without consuming it.
    private mutating func next() -> UInt8? {
        skipSpace()
        return at < bytes.count ? bytes[at] : nil
    }

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    func matches(_ word: StaticString) -> Bool {
        guard at + word.utf8CodeUnitCount <= bytes.count else { return false }
        return (0..<word.utf8CodeUnitCount).allSatisfy { bytes[at + $0] == word.utf8Start[$0] }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// RFC 8259's number grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
    private func isJSONNumber(_ text: String) -> Bool {
        var rest = Substring(text).utf8[...]
        if rest.first == UInt8(ascii: "-") { rest.removeFirst() }
        func digits(_ rest: inout Substring.UTF8View.SubSequence) -> Int {
            let count = rest.prefix { isDigit($0) }.count
            rest.removeFirst(count)
            return count
        }
        let whole = rest
        let wholeDigits = digits(&rest)
        guard wholeDigits > 0, wholeDigits == 1 || whole.first != UInt8(ascii: "0") else { return false }
        if rest.first == UInt8(ascii: ".") {
            rest.removeFirst()
            guard digits(&rest) > 0 else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest.removeFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest.removeFirst() }
            guard digits(&rest) > 0 else { return false }
        }
        return rest.isEmpty
    }
}
