import DeckModel

/// The part of decoding every line shares, whichever side sent it: parse,
/// check for an object, read `id` and `type`.
///
/// Only valid inside the closure of ``open(_:_:)``: its fields point into the line.
struct Envelope {
    let fields: JSONFieldReader
    let id: RequestID?
    let type: String

    /// The deepest nesting of arrays and objects a line may have (PROTOCOL.md
    /// §8 as this library decides it). Messages nest about six levels; plugin
    /// settings get the rest.
    static let maximumDepth = 64

    /// Opens a line and hands it to `body`, or fails with `malformed`
    /// (echoing the id when one was readable, even if the JSON broke later).
    static func open<Bytes: Collection<UInt8>, T>(
        _ line: Bytes, _ body: (Envelope) throws(ProtocolError) -> T
    ) throws(ProtocolError) -> T {
        func run(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<T, ProtocolError> {
            Result { () throws(ProtocolError) -> T in
                try JSONValue.parse(buffer, maximumDepth: maximumDepth, noun: "the line") { parsed throws(ProtocolError) in
                    try body(try Envelope(parsed))
                }
            }
        }
        let outcome = line.withContiguousStorageIfAvailable(run) ?? Array(line).withUnsafeBufferPointer(run)
        return try outcome.get()
    }

    private init(_ parsed: JSONParseResult) throws(ProtocolError) {
        let object: JSONObject
        switch parsed {
        case .value(let value):
            guard let root = value.objectValue else {
                throw ProtocolError(.malformed, "a message must be a JSON object, not \(value.typeName)")
            }
            object = root
        case let .failure(syntax, partial):
            let salvaged = try? RequestID.read(partial?["id"]).get()
            throw ProtocolError(.malformed, "the line is not valid JSON (\(syntax))", id: salvaged ?? nil)
        }
        switch RequestID.read(object["id"]) {
        case .success(let readable): id = readable
        case .failure(let unreadable):
            throw ProtocolError(.malformed, "'id' must be a string or an integer, not \(unreadable.typeName)")
        }
        guard let type = object["type"] else {
            throw ProtocolError(.malformed, "a message needs a string 'type'", id: id)
        }
        guard let text = type.stringValue else {
            throw ProtocolError(.malformed, "'type' must be a string, not \(type.typeName)", id: id)
        }
        self.type = text
        fields = JSONFieldReader(object)
    }

    /// Runs `body` on the fields, turning a field error into a protocol error
    /// that names this message's type and echoes its id.
    func decode<T>(_ body: (JSONFieldReader) throws(JSONError) -> T) throws(ProtocolError) -> T {
        do {
            return try body(fields)
        } catch {
            throw error.protocolError(in: type, id: id)
        }
    }
}

extension JSONError {
    /// `invalid` for rule breaks, `malformed` for everything about shape and type.
    var code: ErrorCode {
        if case .invalid = problem { .invalid } else { .malformed }
    }

    /// The error as the protocol reports it, its sentence prefixed with the message type.
    func protocolError(in type: String, id: RequestID?) -> ProtocolError {
        ProtocolError(code, "\(type): \(self)", id: id, type: type)
    }
}

extension JSONWriter {
    /// Starts a message object with its `"type"` and, when there is one, `"id"`.
    mutating func beginMessage(_ type: String, id: RequestID? = nil) {
        beginObject()
        field("type", type)
        if let id { key("id"); write(id) }
    }

    mutating func write(_ id: RequestID) {
        switch id {
        case .int(let value): int(value)
        case .string(let value): string(value)
        }
    }
}
