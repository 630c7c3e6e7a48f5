internal import CSDBus

/// Reads a received message's body into ``DBusValue``s within ``DBusLimits``:
/// strings are cut, arrays past the bound are skipped without being kept,
/// byte arrays are taken in one piece (never element by element), and
/// anything unreadable ends the body rather than the plugin.
struct DBusReader {
    let message: OpaquePointer

    /// Every value of the body, from the start.
    mutating func readAll() -> [DBusValue] {
        var values: [DBusValue] = []
        while values.count < DBusLimits.arrayElements, let value = read(depth: 0) {
            values.append(value)
        }
        return values
    }

    /// The next value, or nil at the end of the current container (or on a read error).
    private mutating func read(depth: Int) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            return Self.boundedString(pointer)
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { return nil }
            return .bool(flag != 0)
        case UInt8(ascii: "y"):
            return basic(type, UInt8.self).map { .int(Int64($0)) }
        case UInt8(ascii: "n"):
            return basic(type, Int16.self).map { .int(Int64($0)) }
        case UInt8(ascii: "q"):
            return basic(type, UInt16.self).map { .int(Int64($0)) }
        case UInt8(ascii: "i"):
            return basic(type, Int32.self).map { .int(Int64($0)) }
        case UInt8(ascii: "u"):
            return basic(type, UInt32.self).map { .int(Int64($0)) }
        case UInt8(ascii: "x"):
            return basic(type, Int64.self).map { .int($0) }
        case UInt8(ascii: "t"):
            return basic(type, UInt64.self).map { .int(Int64(clamping: $0)) }
        case UInt8(ascii: "d"):
            return basic(type, Double.self).map { .double($0) }
        case UInt8(ascii: "v"):
            guard depth < DBusLimits.depth else { return skip(signature: "v", kept: .other(signature: "v")) }
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            let value = read(depth: depth + 1) ?? .other(signature: inner)
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return value
        case UInt8(ascii: "r"):
            guard depth < DBusLimits.depth else { return skip(signature: "(\(inner))", kept: .other(signature: "(\(inner))")) }
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            var fields: [DBusValue] = []
            while let field = read(depth: depth + 1) { fields.append(field) }
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return .structure(fields)
        case UInt8(ascii: "a"):
            return array(of: inner, depth: depth)
        default:
            let signature = String(UnicodeScalar(UInt8(bitPattern: type)))
            return skip(signature: signature, kept: .other(signature: signature))
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
        guard depth < DBusLimits.depth else { return skip(signature: signature, kept: .other(signature: signature)) }
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), element) > 0 else { return nil }
        let isDictionary = element.hasPrefix("{")
        var elements: [DBusValue] = []
        var entries: [String: DBusValue] = [:]
        var kept = 0
        var truncated = false
        while true {
            if kept >= DBusLimits.arrayElements {
                // Past the bound: step over the rest without keeping it.
                guard sd_bus_message_skip(message, element) > 0 else { break }
                truncated = true
                continue
            }
            if isDictionary {
                let entryContents = String(element.dropFirst().dropLast())
                guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), entryContents) > 0 else { break }
                let key = read(depth: depth + 1)
                let value = read(depth: depth + 1)
                guard sd_bus_message_exit_container(message) >= 0 else { return nil }
                if let key = key?.string, let value { entries[key] = value }
            } else {
                guard let value = read(depth: depth + 1) else { break }
                elements.append(value)
            }
            kept += 1
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return isDictionary ? .dictionary(entries, truncated: truncated) : .array(elements, truncated: truncated)
    }

    private func basic<Number>(_ type: CChar, _: Number.Type) -> Number? where Number: FixedWidthInteger {
        var number = Number.zero
        guard sd_bus_message_read_basic(message, type, &number) > 0 else { return nil }
        return number
    }

    private func basic(_ type: CChar, _: Double.Type) -> Double? {
        var number = 0.0
        guard sd_bus_message_read_basic(message, type, &number) > 0 else { return nil }
        return number
    }

    private func skip(signature: String, kept: DBusValue) -> DBusValue? {
        sd_bus_message_skip(message, signature) >= 0 ? kept : nil
    }

    /// At most ``DBusLimits/stringBytes`` of a C string, cut at a character
    /// boundary; bytes that are not UTF-8 (sd-bus checks, but a stand-in bus
    /// may not) are replaced rather than trusted.
    static func boundedString(_ pointer: UnsafePointer<CChar>) -> DBusValue {
        let length = strnlen(pointer, DBusLimits.stringBytes + 1)
        let truncated = length > DBusLimits.stringBytes
        let count = min(length, DBusLimits.stringBytes)
        let text = pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
        return .string(text, truncated: truncated)
    }
}

#if canImport(Glibc)
import Glibc
#endif
