import DeckModel

extension ClientMessage {
    // MARK: Decoding (the host's side)

    /// Decodes one line a client sent (with or without its final `\n`).
    ///
    /// Never traps. Fails with `malformed` (not JSON, not an object, no string
    /// `type`, a missing or wrongly typed field), `unsupported` (unknown
    /// `type`) or `invalid` (a well-formed button that breaks a model rule);
    /// the error echoes the line's `id` whenever one could be read. Unknown
    /// fields are ignored. Does not check levels or rights: see
    /// ``decode(_:access:)``.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) throws(ProtocolError) -> ClientMessage {
        try Envelope.open(line) { envelope throws(ProtocolError) in
            let kind = try knownKind(envelope)
            return ClientMessage(id: envelope.id, try envelope.decode { fields throws(JSONError) in
                try request(kind, fields)
            })
        }
    }

    /// Decodes one line from a handshaken connection and checks that the
    /// connection may send it, in the order a careful host wants: shape,
    /// `type`, then rights (`handshake` for a second hello, `unsupported`
    /// below the request's level, `unauthorized` for a control request from
    /// elsewhere) before any field is read, so a client learns nothing about
    /// requests it may not make.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes, access: ClientAccess) throws(ProtocolError) -> ClientMessage {
        try Envelope.open(line) { envelope throws(ProtocolError) in
            let kind = try knownKind(envelope)
            do throws(ProtocolError) {
                try kind.admit(access)
            } catch {
                throw ProtocolError(error.code, error.message, id: envelope.id, type: envelope.type)
            }
            return ClientMessage(id: envelope.id, try envelope.decode { fields throws(JSONError) in
                try request(kind, fields)
            })
        }
    }

    /// Decodes the first line of a connection, which must be a well-formed
    /// `hello`. Every failure (including `malformed` and `unsupported` ones)
    /// becomes `handshake`, after which the host closes the connection
    /// (PROTOCOL.md §2). The level is not checked here: see
    /// ``ProtocolLevel/negotiate(client:)``.
    public static func decodeHello<Bytes: Collection<UInt8>>(_ line: Bytes) throws(ProtocolError) -> (id: RequestID?, hello: Hello) {
        do throws(ProtocolError) {
            let message = try decode(line)
            guard case .hello(let hello) = message.request else {
                throw ProtocolError(.handshake, "the first message must be hello, not \(message.kind.rawValue)", id: message.id)
            }
            return (message.id, hello)
        } catch {
            if error.code == .handshake { throw error }
            let prefix = "hello: "
            let detail = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw ProtocolError(.handshake, "the first message must be a well-formed hello: \(detail)", id: error.id)
        }
    }

    private static func knownKind(_ envelope: Envelope) throws(ProtocolError) -> RequestKind {
        guard let kind = RequestKind(rawValue: envelope.type) else {
            throw ProtocolError(.unsupported,
                "unknown message type '\(envelope.type)' (this host speaks protocol level \(ProtocolLevel.current))",
                id: envelope.id, type: envelope.type)
        }
        return kind
    }

    private static func request(_ kind: RequestKind, _ fields: JSONFieldReader) throws(JSONError) -> ClientRequest {
        switch kind {
        case .hello:
            return .hello(Hello(
                protocolLevel: try fields.int("protocol"),
                device: try fields.decode("device", expected: "an object with 'name' and 'kind'") { value throws(JSONError) in
                    let device = try JSONFieldReader(value, expected: "an object with 'name' and 'kind'")
                    return Device(name: try device.string("name", maximumLength: Device.maximumNameLength),
                                  kind: try device.string("kind", maximumLength: Device.maximumNameLength))
                },
                token: try fields.stringIfPresent("token"),
                pairingCode: try fields.stringIfPresent("pairingCode")))
        case .setButton:
            return .setButton(page: try fields.int("page"), index: try fields.int("index"), button: try fields.button("button"))
        case .clearButton:
            return .clearButton(page: try fields.int("page"), index: try fields.int("index"),
                                expecting: try fields.buttonIfPresent("expecting"))
        case .moveButton:
            return .moveButton(fromPage: try fields.int("fromPage"), fromIndex: try fields.int("fromIndex"),
                               toPage: try fields.int("toPage"), toIndex: try fields.int("toIndex"),
                               button: try fields.button("button"))
        case .press:
            return .press(page: try fields.int("page"), index: try fields.int("index"),
                          button: try fields.buttonIfPresent("button"),
                          phase: try fields.decodeIfPresent("phase") { value throws(JSONError) in
                              try JSONFieldReader.oneOf(value, PressPhase.self)
                          } ?? .tap)
        case .ping: return .ping
        case .status: return .status
        case .lock: return .lock
        case .unlock: return .unlock
        case .reload: return .reload
        case .useProfile: return .useProfile(name: try fields.name("name"))
        case .profiles: return .profiles
        case .snapshots: return .snapshots(profile: try fields.stringIfPresent("profile"))
        case .restore: return .restore(generation: try fields.int("generation"))
        case .export: return .export(profile: try fields.stringIfPresent("profile"))
        case .pair: return .pair(name: try fields.name("name", maximumLength: Device.maximumNameLength))
        case .unpair: return .unpair(name: try fields.name("name"))
        case .subscribe: return .subscribe
        case .restart: return .restartPlugin(id: try fields.name("plugin"), reset: try fields.boolIfPresent("reset") ?? false)
        case .devices: return .devices
        case .setFace:
            let clear = try fields.decodeIfPresent("clear") { value throws(JSONError) -> Bool in
                guard let flag = value.boolValue else { throw JSONError.wrongType(expected: "true or false", got: value.typeName) }
                return flag
            } ?? false
            let state = try fields.stringIfPresent("state"), title = try fields.stringIfPresent("title")
            if !clear && state == nil && title == nil {
                throw JSONError.invalid("setFace needs state, title or clear: true")
            }
            return .setFace(page: try fields.int("page"), index: try fields.int("index"), state: state, title: title, clear: clear)
        }
    }

    // MARK: Encoding (the client's side)

    /// The message as one line of JSON ending in `\n`, ready to write.
    public func line() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginMessage(kind.rawValue, id: id)
        switch request {
        case .hello(let hello):
            writer.field("protocol", hello.protocolLevel)
            writer.key("device")
            writer.beginObject()
            writer.field("name", hello.device.name)
            writer.field("kind", hello.device.kind)
            writer.endObject()
            writer.field("token", hello.token)
            if let code = hello.pairingCode { writer.field("pairingCode", code) }
        case let .setButton(page, index, button):
            writer.field("page", page)
            writer.field("index", index)
            writer.key("button")
            writer.write(button)
        case let .clearButton(page, index, expecting):
            writer.field("page", page)
            writer.field("index", index)
            if let expecting {
                writer.key("expecting")
                writer.write(expecting)
            }
        case let .moveButton(fromPage, fromIndex, toPage, toIndex, button):
            writer.field("fromPage", fromPage)
            writer.field("fromIndex", fromIndex)
            writer.field("toPage", toPage)
            writer.field("toIndex", toIndex)
            writer.key("button")
            writer.write(button)
        case let .press(page, index, button, phase):
            writer.field("page", page)
            writer.field("index", index)
            if let button {
                writer.key("button")
                writer.write(button)
            }
            writer.field("phase", phase.rawValue)
        case .ping, .status, .lock, .unlock, .reload, .profiles, .subscribe, .devices:
            break
        case .useProfile(let name), .pair(let name), .unpair(let name):
            writer.field("name", name)
        case .snapshots(let profile), .export(let profile):
            writer.field("profile", profile)
        case .restore(let generation):
            writer.field("generation", generation)
        case let .restartPlugin(id, reset):
            writer.field("plugin", id)
            if reset { writer.field("reset", true) }
        case let .setFace(page, index, state, title, clear):
            writer.field("page", page)
            writer.field("index", index)
            writer.field("state", state)
            writer.field("title", title)
            if clear { writer.field("clear", true) }
        }
        writer.endObject()
        return writer.line()
    }
}
