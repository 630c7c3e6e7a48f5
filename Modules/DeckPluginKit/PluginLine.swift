import DeckModel

/// What both directions share when decoding a line: parse it with the
/// package's one JSON codec (docs/json.md), check for an object, and find the
/// string naming the message.
///
/// The contract names host → plugin lines by `event` and plugin → host lines
/// by `type`. Each side reads its own key first and the other one when it is
/// absent, so a plugin written like a protocol client (`type` everywhere)
/// still works; the host writes both keys on its lines for the same reason.
struct PluginLine {
    let type: String
    let fields: JSONFieldReader

    /// Opens `line` (without or with its final line feed) and hands it to `body`.
    static func open<Bytes: Collection<UInt8>, T>(
        _ line: Bytes, key: StaticString, otherKey: StaticString,
        _ body: (PluginLine) throws(PluginLineError) -> T
    ) throws(PluginLineError) -> T {
        let parsed = Result { () throws(JSONError) -> Result<T, PluginLineError> in
            try JSONValue.read(line, maximumDepth: PluginProtocol.maximumDepth, noun: "the line") { root in
                Result { () throws(PluginLineError) -> T in
                    guard let object = root.objectValue else {
                        throw .notJSON(reason: "it is \(root.typeName)")
                    }
                    guard let name = object[key] ?? object[otherKey], let type = name.stringValue else {
                        throw .missingType(key: key.description)
                    }
                    return try body(PluginLine(type: type, fields: JSONFieldReader(object)))
                }
            }
        }
        switch parsed {
        case .success(let outcome): return try outcome.get()
        case .failure(let syntax): throw .notJSON(reason: syntax.description)
        }
    }

    /// Runs `body` on the fields, naming this message's type in a field error.
    func decode<T>(_ body: (JSONFieldReader) throws(JSONError) -> T) throws(PluginLineError) -> T {
        do {
            return try body(fields)
        } catch {
            throw .invalidFields(type: type, reason: error.description)
        }
    }
}

extension JSONFieldReader {
    /// An optional `settings` object as plugin settings (absent or null: empty).
    func settings() throws(JSONError) -> [String: DeckValue] {
        try decodeIfPresent("settings") { value throws(JSONError) -> [String: DeckValue] in
            guard value.objectValue != nil, case .object(let settings) = value.deckValue else {
                throw .wrongType(expected: "an object", got: value.typeName)
            }
            return settings
        } ?? [:]
    }

    /// A non-negative integer (a page or a slot index).
    func position(_ key: StaticString) throws(JSONError) -> Int {
        let number = try int(key)
        guard number >= 0 else { throw JSONError.invalid("'\(key)' must not be negative, not \(number)") }
        return number
    }
}

extension JSONWriter {
    /// `"event":NAME,"type":NAME`: see ``PluginLine`` for why both.
    mutating func eventName(_ name: String) {
        field("event", name)
        field("type", name)
    }
}
