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
        case let .setTitle(page, index, title):
            writer.field("page", page)
            writer.field("index", index)
            writer.nullableField("title", title)
        case let .log(level, message):
            writer.field("level", level.rawValue)
            writer.field("message", message)
        case let .setStatus(status):
            writer.nullableField("status", status)
        }
        writer.endObject()
        return writer.line()
    }

    // MARK: Decoding (the host's side)

    /// Reads one line from a plugin (its final line feed may be there or not).
    ///
    /// Unknown fields are ignored; an unknown `type` throws
    /// ``PluginLineError/unknownType(_:)``. A `setTitle` without `title`
    /// means null (back to the button's name); a `log` without `level` is
    /// `info`.
    public init<Bytes: Collection<UInt8>>(line: Bytes) throws(PluginLineError) {
        self = try PluginLine.open(line, key: "type", otherKey: "event") { line throws(PluginLineError) in
            switch line.type {
            case "ready":
                return .ready
            case "setTitle":
                return try line.decode { fields throws(JSONError) in
                    .setTitle(page: try fields.position("page"), index: try fields.position("index"),
                              title: try fields.stringIfPresent("title"))
                }
            case "log":
                return try line.decode { fields throws(JSONError) in
                    let level = try fields.decodeIfPresent("level") { value throws(JSONError) in
                        try JSONFieldReader.oneOf(value, PluginLogLevel.self)
                    }
                    return .log(level: level ?? .info, message: try fields.string("message"))
                }
            case "setStatus":
                return try line.decode { fields throws(JSONError) in .setStatus(try fields.stringIfPresent("status")) }
            default:
                throw .unknownType(line.type)
            }
        }
    }
}
