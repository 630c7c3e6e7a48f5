#if canImport(Glibc)
import Glibc
#endif
internal import CSDBus

/// Reads a received message's body into ``DBusValue``s within ``DBusLimits``:
/// strings are cut, arrays past the bound are skipped without being kept,
/// byte arrays are stepped over in one piece (never element by element), and
/// anything unreadable ends the body rather than the reader's process.
struct DBusReader {
    let message: OpaquePointer
    let limits: DBusLimits

    /// Every value of the body, from the start.
    mutating func readAll() -> [DBusValue] {
        var values: [DBusValue] = []
        while values.count < limits.arrayElements, let value = read(depth: 0) {
            values.append(value)
        }
        return values
    }

    /// The next value, or nil at the end of the current container (or on a read error).
    /// `unwrapping`: a variant gives its inner value (a dictionary's values).
    private mutating func read(depth: Int, unwrapping: Bool = false) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"):
            return text(type).map { .string($0.text, truncated: $0.truncated) }
        case UInt8(ascii: "o"):
            return text(type).map { .objectPath($0.text) }
        case UInt8(ascii: "g"):
            return text(type).map { .signature($0.text) }
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { return nil }
            return .bool(flag != 0)
        case UInt8(ascii: "y"): return basic(type, UInt8.self).map { .byte($0) }
        case UInt8(ascii: "n"): return basic(type, Int16.self).map { .int16($0) }
        case UInt8(ascii: "q"): return basic(type, UInt16.self).map { .uint16($0) }
        case UInt8(ascii: "i"): return basic(type, Int32.self).map { .int32($0) }
        case UInt8(ascii: "u"): return basic(type, UInt32.self).map { .uint32($0) }
        case UInt8(ascii: "x"): return basic(type, Int64.self).map { .int64($0) }
        case UInt8(ascii: "t"): return basic(type, UInt64.self).map { .uint64($0) }
        case UInt8(ascii: "d"):
            var number = 0.0
            guard sd_bus_message_read_basic(message, type, &number) > 0 else { return nil }
            return .double(number)
        case UInt8(ascii: "v"):
            guard depth < limits.depth else { return skip("v") }
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            let value = read(depth: depth + 1) ?? .other(signature: inner)
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return unwrapping ? value : .variant(value)
        case UInt8(ascii: "r"):
            guard depth < limits.depth else { return skip("(\(inner))") }
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            var fields: [DBusValue] = []
            while let field = read(depth: depth + 1) { fields.append(field) }
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return .structure(fields)
        case UInt8(ascii: "a"):
            return array(of: inner, depth: depth)
        default:
            return skip(String(UnicodeScalar(UInt8(bitPattern: type))))
        }
    }

    private mutating func array(of element: String, depth: Int) -> DBusValue? {
        let signature = "a" + element
        if element == "y" {
            // A byte array in one piece: a 50 MB one costs no loop.
            var pointer: UnsafeRawPointer?
            var size = 0
            guard sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size) >= 0 else { return nil }
            return .other(signature: signature)
        }
        guard depth < limits.depth else { return skip(signature) }
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), element) > 0 else { return nil }
        let isDictionary = element.hasPrefix("{")
        var elements: [DBusValue] = []
        var entries: [String: DBusValue] = [:]
        var kept = 0
        var truncated = false
        while true {
            if kept >= limits.arrayElements {
                // Past the bound: step over the rest without keeping it.
                guard sd_bus_message_skip(message, element) > 0 else { break }
                truncated = true
                continue
            }
            if isDictionary {
                let entryContents = String(element.dropFirst().dropLast())
                guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), entryContents) > 0 else { break }
                let key = read(depth: depth + 1)
                let value = read(depth: depth + 1, unwrapping: true)
                guard sd_bus_message_exit_container(message) >= 0 else { return nil }
                if let key = key?.string, let value { entries[key] = value }
            } else {
                guard let value = read(depth: depth + 1) else { break }
                elements.append(value)
            }
            kept += 1
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return isDictionary ? .dictionary(entries, truncated: truncated) : .array(of: element, elements, truncated: truncated)
    }

    private func basic<Number>(_ type: CChar, _: Number.Type) -> Number? where Number: FixedWidthInteger {
        var number = Number.zero
        guard sd_bus_message_read_basic(message, type, &number) > 0 else { return nil }
        return number
    }

    private func skip(_ signature: String) -> DBusValue? {
        sd_bus_message_skip(message, signature) >= 0 ? .other(signature: signature) : nil
    }

    /// At most ``DBusLimits/stringBytes`` of a string-like value (a character
    /// the cut splits becomes U+FFFD); bytes that are not UTF-8 (sd-bus checks,
    /// but a peer's library may not) are replaced rather than trusted.
    private func text(_ type: CChar) -> (text: String, truncated: Bool)? {
        var pointer: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
        let length = strnlen(pointer, limits.stringBytes + 1)
        let truncated = length > limits.stringBytes
        let count = min(length, limits.stringBytes)
        let text = pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        return (text, truncated)
    }
}
