/// Writes compact JSON straight into bytes.
///
/// Objects are written field by field in a fixed order, with no intermediate
/// tree and no `Codable` boxing: a 1,000-page layout is encoded once per
/// change and the same bytes go to every client and into the snapshot.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// The first number JSON cannot hold (infinity, NaN) that was written as
    /// `null`; a writer that must not lose one (the snapshot store) checks it.
    package private(set) var nonFiniteNumber: Double?
    /// Whether the next key or array element needs a `,` before it.
    private var needsComma = false

    package init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes written so far plus a final `\n`. Mutating, not consuming:
    /// the newline goes into the writer's own buffer in place (a consuming
    /// call copied a snapshot document's 10 KB once more per edit).
    package mutating func line() -> [UInt8] {
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    // MARK: Structure

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// A key known at compile time: ASCII with nothing to escape.
    package mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key chosen at run time (plugin settings), escaped like any string.
    package mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A complete JSON value written earlier by a `JSONWriter` (an encoded
    /// layout reused for every line of one revision), copied as it is;
    /// `nonFiniteNumber` is what that writer's ``nonFiniteNumber`` was.
    package mutating func value(encoded json: [UInt8], nonFiniteNumber lost: Double?) {
        separate()
        bytes.append(contentsOf: json)
        if nonFiniteNumber == nil { nonFiniteNumber = lost }
        needsComma = true
    }

    /// A complete JSON value cut from bytes a `JSONWriter` wrote, holding no
    /// non-finite number, copied as it is.
    package mutating func value(encoded json: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    // MARK: Scalars

    package mutating func string(_ value: String) {
        separate()
        // Native strings are contiguous UTF-8 already: no copy. Others
        // (bridged ones on Apple platforms) go through a copy once.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = value
            copy.withUTF8 { appendEscaped($0) }
        }
        needsComma = true
    }

    package mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Integral values are written as integers (`600`, not `600.0`), for
    /// numbers that are read back as `Double` whatever their form (a run
    /// timeout). A value JSON cannot hold (infinity, NaN) is written as `null`.
    package mutating func double(_ value: Double) {
        if let integral = Int(exactly: value), integral.magnitude < 1 << 53 {
            int(integral)
        } else {
            exactDouble(value)
        }
    }

    /// Keeps a fraction or exponent on every value (`2.0`), so that a plugin
    /// setting that was a float reads back as a float, not an integer.
    package mutating func exactDouble(_ value: Double) {
        separate()
        // Swift's description is the shortest text that reads back as the same
        // Double, and for finite values it is valid JSON ("2.0", "2.5", "1e-05").
        if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            if nonFiniteNumber == nil { nonFiniteNumber = value }
            bytes.append(contentsOf: "null".utf8)
        }
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    // MARK: Fields (key and value in one call)

    package mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    package mutating func field(_ name: StaticString, _ value: Int) { key(name); int(value) }
    package mutating func field(_ name: StaticString, _ value: Double) { key(name); double(value) }
    package mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }

    /// Leaves the field out when the value is nil.
    package mutating func field(_ name: StaticString, _ value: String?) {
        if let value { field(name, value) }
    }

    /// Leaves the field out when the value is nil.
    package mutating func field(_ name: StaticString, _ value: Int?) {
        if let value { field(name, value) }
    }

    /// Writes `null` when the value is nil (fields whose absence means something else).
    package mutating func nullableField(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    /// An array of strings.
    package mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// An array of values, each written by `body`.
    package mutating func field<T>(_ name: StaticString, _ elements: [T], _ body: (inout JSONWriter, T) -> Void) {
        key(name)
        beginArray()
        for element in elements { body(&self, element) }
        endArray()
    }

    // MARK: Internals

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Copies runs of plain bytes in bulk and escapes only `"`, `\` and
    /// control characters; everything else (Korean, emoji) stays raw UTF-8.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
