#if canImport(Glibc)
import Glibc
#endif
internal import CSDBus

/// Reads a message body into ``PortalValue``s, bounded: nesting past 8,
/// arrays past 256 entries and strings past 4 KiB are cut, and anything
/// unreadable ends the body rather than the plugin (a portal, or something
/// posing as one, can send anything).
struct PortalReader {
    let message: OpaquePointer
    private static let depth = 8, entries = 256, stringBytes = 4096

    mutating func readAll() -> [PortalValue] {
        var values: [PortalValue] = []
        while values.count < Self.entries, let value = read(depth: 0) { values.append(value) }
        return values
    }

    private mutating func read(depth: Int) -> PortalValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            let length = strnlen(pointer, Self.stringBytes)
            return .string(pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            })
        case UInt8(ascii: "b"):
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, type, &flag) > 0 else { return nil }
            return .bool(flag != 0)
        case UInt8(ascii: "y"): return number(type, UInt8.self)
        case UInt8(ascii: "n"): return number(type, Int16.self)
        case UInt8(ascii: "q"): return number(type, UInt16.self)
        case UInt8(ascii: "i"): return number(type, Int32.self)
        case UInt8(ascii: "u"): return number(type, UInt32.self)
        case UInt8(ascii: "x"): return number(type, Int64.self)
        case UInt8(ascii: "t"): return number(type, UInt64.self)
        case UInt8(ascii: "v") where depth < Self.depth:
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            let value = read(depth: depth + 1) ?? .other
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
            return value
        case UInt8(ascii: "a") where depth < Self.depth && inner != "y":
            return array(of: inner, depth: depth)
        default:
            let signature = UInt8(bitPattern: type) == UInt8(ascii: "a") ? "a" + inner
                : UInt8(bitPattern: type) == UInt8(ascii: "r") ? "(\(inner))"
                : UInt8(bitPattern: type) == UInt8(ascii: "e") ? "{\(inner)}"
                : String(UnicodeScalar(UInt8(bitPattern: type)))
            return sd_bus_message_skip(message, signature) >= 0 ? .other : nil
        }
    }

    private mutating func array(of element: String, depth: Int) -> PortalValue? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), element) > 0 else { return nil }
        let isDictionary = element.hasPrefix("{")
        var elements: [PortalValue] = []
        var entries: [String: PortalValue] = [:]
        var kept = 0
        while true {
            if kept >= Self.entries {
                guard sd_bus_message_skip(message, element) > 0 else { break }
                continue
            }
            if isDictionary {
                guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), String(element.dropFirst().dropLast())) > 0
                else { break }
                let key = read(depth: depth + 1), value = read(depth: depth + 1)
                guard sd_bus_message_exit_container(message) >= 0 else { return nil }
                if let key = key?.string, let value { entries[key] = value }
            } else {
                guard let value = read(depth: depth + 1) else { break }
                elements.append(value)
            }
            kept += 1
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return isDictionary ? .dictionary(entries) : .array(elements)
    }

    private func number<Number: FixedWidthInteger>(_ type: CChar, _: Number.Type) -> PortalValue? {
        var value = Number.zero
        guard sd_bus_message_read_basic(message, type, &value) > 0 else { return nil }
        return .number(Int64(clamping: value))
    }
}

/// Appends ``PortalArgument``s to a call through sd-bus's non-variadic API.
struct PortalWriter {
    let message: OpaquePointer

    func append(_ argument: PortalArgument) throws(KeysError) {
        switch argument {
        case .string(let text): try check(basic("s", text))
        case .objectPath(let path): try check(basic("o", path))
        case .int32(var number): try check(sd_bus_message_append_basic(message, Self.type("i"), &number))
        case .uint32(var number): try check(sd_bus_message_append_basic(message, Self.type("u"), &number))
        case .options(let options):
            try check(sd_bus_message_open_container(message, Self.type("a"), "{sv}"))
            for (key, value) in options.sorted(by: { $0.key < $1.key }) {
                try check(sd_bus_message_open_container(message, Self.type("e"), "sv"))
                try check(basic("s", key))
                switch value {
                case .string(let text):
                    try check(sd_bus_message_open_container(message, Self.type("v"), "s"))
                    try check(basic("s", text))
                case .uint32(var number):
                    try check(sd_bus_message_open_container(message, Self.type("v"), "u"))
                    try check(sd_bus_message_append_basic(message, Self.type("u"), &number))
                }
                try check(sd_bus_message_close_container(message))
                try check(sd_bus_message_close_container(message))
            }
            try check(sd_bus_message_close_container(message))
        }
    }

    private func basic(_ type: Unicode.Scalar, _ text: String) -> Int32 {
        text.withCString { sd_bus_message_append_basic(message, Self.type(type), $0) }
    }

    private static func type(_ scalar: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: scalar)) }

    private func check(_ code: Int32) throws(KeysError) {
        guard code >= 0 else { throw PortalBus.failure("adding an argument to a portal call", code) }
    }
}
