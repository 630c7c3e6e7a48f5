import DeckModel

extension PluginEvent {
    // MARK: Encoding (the host's side)

    /// The event as one line of JSON ending in `\n`, for the plugin's input.
    ///
    /// The name is written under `event` (the contract's word) and under
    /// `type`; settings keys are sorted, so equal events are equal bytes.
    public func line() -> [UInt8] {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        writer.eventName(name)
        switch self {
        case .hello(let hello):
            writer.field("protocol", hello.protocolLevel)
            writer.key("host")
            writer.beginObject()
            writer.field("name", hello.hostName)
            writer.field("version", hello.hostVersion)
            writer.endObject()
            writer.field("plugin", hello.plugin)
        case .buttons(let buttons):
            writer.field("buttons", buttons) { writer, button in
                writer.beginObject()
                writer.field("page", button.page)
                writer.field("index", button.index)
                writer.field("name", button.name)
                writer.field("command", button.command)
                writer.key("settings")
                writer.write(button.settings)
                writer.endObject()
            }
        case .press(let press):
            writer.field("phase", press.phase.rawValue)
            writer.field("command", press.command)
            writer.key("settings")
            writer.write(press.settings)
            writer.key("button")
            writer.beginObject()
            writer.field("page", press.button.page)
            writer.field("index", press.button.index)
            writer.field("name", press.button.name)
            writer.endObject()
            writer.key("device")
            if let device = press.device {
                writer.beginObject()
                writer.field("name", device.name)
                writer.field("kind", device.kind)
                writer.endObject()
            } else {
                writer.null()
            }
        case .shutdown:
            break
        }
        writer.endObject()
        return writer.line()
    }

    // MARK: Decoding (the plugin's side)

    /// Reads one line from the host (its final line feed may be there or not).
    ///
    /// Unknown fields are ignored. An event this library does not know
    /// throws ``PluginLineError/unknownType(_:)``, which a plugin should
    /// ignore: a newer host may send more events.
    public init<Bytes: Collection<UInt8>>(line: Bytes) throws(PluginLineError) {
        self = try PluginLine.open(line, key: "event", otherKey: "type") { line throws(PluginLineError) in
            switch line.type {
            case "hello":
                return try line.decode { fields throws(JSONError) in
                    let host = try fields.decode("host", expected: "an object with name and version") { value throws(JSONError) in
                        try JSONFieldReader(value, expected: "an object with name and version")
                    }
                    return .hello(PluginHello(protocolLevel: try fields.int("protocol"),
                                              hostName: try host.stringIfPresent("name") ?? "",
                                              hostVersion: try host.stringIfPresent("version") ?? "",
                                              plugin: try fields.string("plugin")))
                }
            case "buttons":
                return try line.decode { fields throws(JSONError) in
                    .buttons(try fields.array("buttons", of: "buttons") { value throws(JSONError) in
                        let button = try JSONFieldReader(value, expected: "a button object")
                        return PluginButton(page: try button.position("page"), index: try button.position("index"),
                                            name: try button.string("name"), command: try button.string("command"),
                                            settings: try button.settings())
                    })
                }
            case "press":
                return try line.decode { fields throws(JSONError) in .press(try PluginPress(fields)) }
            case "shutdown":
                return .shutdown
            default:
                throw .unknownType(line.type)
            }
        }
    }
}

extension PluginPress {
    fileprivate init(_ fields: JSONFieldReader) throws(JSONError) {
        let phase = try fields.decodeIfPresent("phase") { value throws(JSONError) in
            try JSONFieldReader.oneOf(value, Phase.self)
        }
        let button = try fields.decode("button", expected: "an object with page, index and name") { value throws(JSONError) in
            let button = try JSONFieldReader(value, expected: "an object with page, index and name")
            return PluginButtonReference(page: try button.position("page"), index: try button.position("index"),
                                         name: try button.string("name"))
        }
        let device = try fields.decodeIfPresent("device") { value throws(JSONError) in
            let device = try JSONFieldReader(value, expected: "an object with name and kind")
            return PluginDevice(name: try device.stringIfPresent("name") ?? "", kind: try device.stringIfPresent("kind") ?? "")
        }
        self.init(phase: phase ?? .tap, command: try fields.string("command"), settings: try fields.settings(),
                  button: button, device: device)
    }
}
