import DeckModel

extension PluginMessage {
    // MARK: Encoding (the plugin's side)

    /// The message as one line of JSON ending in `\n`, for the plugin's output.
    public func line() -> [UInt8] {
        var writer = JSONWriter(capacity: 64)
        writer.beginObject()
        writer.field("type", type)
        switch self {
        case .ready:
            break
        case let .setTitle(target, title):
            writer.write(target)
            writer.nullableField("title", title)
        case let .setState(target, state):
            writer.write(target)
            writer.nullableField("state", state)
        case let .setImage(target, image):
            writer.write(target)
            writer.nullableField("image", image.map { Base64.encode($0) })
        case .showAlert(let target), .showOk(let target):
            writer.write(target)
        case let .log(level, message):
            writer.field("level", level.rawValue)
            writer.field("message", message)
        }
        writer.endObject()
        return writer.line()
    }

    // MARK: Decoding (the host's side)

    /// Reads one line from a plugin (its final line feed may be there or not).
    ///
    /// Unknown fields are ignored; an unknown `type` throws
    /// ``PluginLineError/unknownType(_:)``. A button is named by `page` and
    /// `index` or by `for` (not both). A missing `title`, `state` or `image`
    /// means null (back to the default); a `log` without `level` is `info`.
    /// An `image` that is not base64 or decodes to more than
    /// ``PluginProtocol/maximumImageBytes`` throws; its type is the host's
    /// to sniff.
    public init<Bytes: Collection<UInt8>>(line: Bytes) throws(PluginLineError) {
        self = try PluginLine.open(line, key: "type", otherKey: "event") { line throws(PluginLineError) in
            switch line.type {
            case "ready":
                return .ready
            case "setTitle":
                return try line.decode { fields throws(JSONError) in
                    .setTitle(target: try fields.target(), title: try fields.stringIfPresent("title"))
                }
            case "setState":
                return try line.decode { fields throws(JSONError) in
                    .setState(target: try fields.target(), state: try fields.stringIfPresent("state"))
                }
            case "setImage":
                return try line.decode { fields throws(JSONError) in
                    .setImage(target: try fields.target(), image: try fields.image())
                }
            case "showAlert":
                return try line.decode { fields throws(JSONError) in .showAlert(target: try fields.target()) }
            case "showOk":
                return try line.decode { fields throws(JSONError) in .showOk(target: try fields.target()) }
            case "log":
                return try line.decode { fields throws(JSONError) in
                    let level = try fields.decodeIfPresent("level") { value throws(JSONError) in
                        try JSONFieldReader.oneOf(value, PluginLogLevel.self)
                    }
                    return .log(level: level ?? .info, message: try fields.string("message"))
                }
            default:
                throw .unknownType(line.type)
            }
        }
    }
}

extension JSONWriter {
    /// `"page":P,"index":I` or `"for":{"command":C,"settings":{…}}`.
    mutating func write(_ target: ButtonTarget) {
        switch target {
        case let .slot(page, index):
            field("page", page)
            field("index", index)
        case let .matching(command, settings):
            key("for")
            beginObject()
            field("command", command)
            key("settings")
            write(settings)
            endObject()
        }
    }
}

extension JSONFieldReader {
    /// The button(s) a face message names: `page`+`index`, or `for`.
    func target() throws(JSONError) -> ButtonTarget {
        guard let match = optional("for") else {
            return .slot(page: try position("page"), index: try position("index"))
        }
        if optional("page") != nil || optional("index") != nil {
            throw JSONError.invalid("name the button by 'page' and 'index' or by 'for', not both")
        }
        return try Self.decodeMatch(match)
    }

    private static func decodeMatch(_ value: JSONValue) throws(JSONError) -> ButtonTarget {
        do {
            let fields = try JSONFieldReader(value, expected: "an object {command, settings}")
            let command = try fields.name("command")
            return .matching(command: command, settings: try fields.settings())
        } catch {
            throw error.inside("for")
        }
    }

    /// `image`: base64 of at most ``PluginProtocol/maximumImageBytes``, or null.
    func image() throws(JSONError) -> [UInt8]? {
        guard let value = optional("image") else { return nil }
        guard let text = value.stringValue else {
            throw JSONError.wrongType(expected: "a string of base64", got: value.typeName).inside("image")
        }
        do {
            return try Base64.decode(text, limit: PluginProtocol.maximumImageBytes)
        } catch {
            throw JSONError.invalid("'image' must be base64 of at most \(PluginProtocol.maximumImageBytes) bytes, but \(error)")
        }
    }
}
