internal import CSDBus

/// Appends ``DBusValue``s to an outgoing message through sd-bus's
/// non-variadic API (its variadic `sd_bus_message_append` cannot be called
/// from Swift).
struct DBusWriter {
    let message: OpaquePointer

    func append(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .string(let string, _): try text(string, "s")
        case .objectPath(let path): try text(path, "o")
        case .signature(let signature): try text(signature, "g")
        case .bool(let flag): try basic(Int32(flag ? 1 : 0), "b")
        case .byte(let number): try basic(number, "y")
        case .int16(let number): try basic(number, "n")
        case .uint16(let number): try basic(number, "q")
        case .int32(let number): try basic(number, "i")
        case .uint32(let number): try basic(number, "u")
        case .int64(let number): try basic(number, "x")
        case .uint64(let number): try basic(number, "t")
        case .double(let number): try basic(number, "d")
        case .variant(let inner):
            try container("v", inner.signature) { () throws(DBusError) in try append(inner) }
        case .array(let element, let elements, _):
            if let odd = elements.first(where: { $0.signature != element }) {
                throw .unwritable("an array of '\(element)' cannot hold \(odd.kindName) ('\(odd.signature)'): "
                                  + "give every element the array's type")
            }
            try container("a", element) { () throws(DBusError) in
                for element in elements { try append(element) }
            }
        case .dictionary(let entries, _):
            // In key order, so the same dictionary is the same bytes on the bus every time.
            try container("a", "{sv}") { () throws(DBusError) in
                for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                    try container("e", "sv") { () throws(DBusError) in
                        try text(key, "s")
                        try append(.variant(entry))
                    }
                }
            }
        case .structure(let fields):
            try container("r", fields.map(\.signature).joined()) { () throws(DBusError) in
                for field in fields { try append(field) }
            }
        case .other(let signature):
            throw .unwritable("a value of type '\(signature)' was read but not kept, so it cannot be written: "
                              + "send a typed value (DBusValue's other cases) instead")
        }
    }

    private func text(_ text: String, _ type: Unicode.Scalar) throws(DBusError) {
        try check(text.withCString { sd_bus_message_append_basic(message, Self.code(type), $0) }, type)
    }

    private func basic<Number: BitwiseCopyable>(_ number: Number, _ type: Unicode.Scalar) throws(DBusError) {
        var number = number
        try check(sd_bus_message_append_basic(message, Self.code(type), &number), type)
    }

    private func container(_ type: Unicode.Scalar, _ contents: String,
                           _ body: () throws(DBusError) -> Void) throws(DBusError) {
        try check(sd_bus_message_open_container(message, Self.code(type), contents), type)
        try body()
        try check(sd_bus_message_close_container(message), type)
    }

    private static func code(_ scalar: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: scalar)) }

    private func check(_ code: Int32, _ type: Unicode.Scalar) throws(DBusError) {
        guard code >= 0 else { throw .failed("adding a value of type '\(type)' to a call", errno: -code) }
    }
}
