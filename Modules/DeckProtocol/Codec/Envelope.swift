/// The part of decoding every line shares, whichever side sent it: parse,
/// check for an object, read `id` and `type`.
struct Envelope {
    let fields: FieldReader
    let id: RequestID?
    let type: String

    /// Opens a line, or fails with `malformed` (echoing the id when one was readable).
    static func open<Bytes: Collection<UInt8>>(_ line: Bytes) throws(ProtocolError) -> Envelope {
        let parsed = line.withContiguousStorageIfAvailable { JSONParser.parse($0) }
            ?? Array(line).withUnsafeBufferPointer { JSONParser.parse($0) }
        let value: JSONValue
        switch parsed.0 {
        case .success(let success):
            value = success
        case .failure(let syntax):
            let salvaged = try? RequestID.read(parsed.id).get()
            throw ProtocolError(.malformed, syntax.sentence, id: salvaged ?? nil)
        }
        guard case .object(let object) = value else {
            throw ProtocolError(.malformed, "a message must be a JSON object, not \(value.typeName)")
        }
        let id: RequestID?
        switch RequestID.read(object["id"]) {
        case .success(let readable): id = readable
        case .failure(let unreadable):
            throw ProtocolError(.malformed, "'id' must be a string or an integer, not \(unreadable.typeName)")
        }
        switch object["type"] {
        case .string(let type)?:
            return Envelope(fields: FieldReader(object), id: id, type: type)
        case nil:
            throw ProtocolError(.malformed, "a message needs a string 'type'", id: id)
        case let other?:
            throw ProtocolError(.malformed, "'type' must be a string, not \(other.typeName)", id: id)
        }
    }

    /// Runs `body` on the fields, turning a field error into a protocol error
    /// that names this message's type and echoes its id.
    func decode<T>(_ body: (FieldReader) throws(FieldError) -> T) throws(ProtocolError) -> T {
        do {
            return try body(fields)
        } catch {
            throw error.protocolError(in: type, id: id)
        }
    }
}
