import DeckModel

extension HostMessage {
    // MARK: Encoding (the host's side)

    /// The message as one complete line of JSON ending in `\n`.
    ///
    /// A broadcast is the same bytes for every client: encode it once and
    /// hand the array to each connection (arrays are copy-on-write, so this
    /// shares one buffer).
    public func line() -> [UInt8] {
        line(reusing: nil)
    }

    /// ``line()``, with the layout of a `welcome` or `layout` message copied
    /// from `encoded` when that is its encoding (the host encodes each
    /// revision once and reuses the bytes for the broadcast, every welcome
    /// and the snapshot). Any other layout is encoded as usual, so the line
    /// is always the one ``line()`` writes.
    package func line(reusing encoded: EncodedLayout?) -> [UInt8] {
        var writer = JSONWriter(capacity: estimatedSize(reusing: encoded))
        writer.beginMessage(type, id: id)
        switch self {
        case .welcome(_, let welcome):
            writer.field("protocol", welcome.protocolLevel)
            writer.key("host")
            writer.write(welcome.host)
            writer.field("profile", welcome.profile)
            writer.field("revision", welcome.revision)
            writer.field("locked", welcome.locked)
            writer.key("layout")
            writer.write(welcome.layout, reusing: encoded)
            writer.write(holdSlots: welcome.holdSlots)
            if let token = welcome.token { writer.field("token", token) }
            writer.write(faces: welcome.faces)
        case let .layout(profile, revision, layout, holdSlots, faces):
            writer.field("profile", profile)
            writer.field("revision", revision)
            writer.key("layout")
            writer.write(layout, reusing: encoded)
            writer.write(holdSlots: holdSlots)
            writer.write(faces: faces)
        case .lock(let locked):
            writer.field("locked", locked)
        case .ok(_, let revision):
            writer.field("revision", revision)
        case let .error(_, code, message, problems):
            writer.field("code", code.rawValue)
            writer.field("message", message)
            if !problems.isEmpty { writer.field("problems", problems) { $0.write($1) } }
        case .pong:
            break
        case .showPage(let page):
            writer.field("page", page)
        case let .buttonState(page, index, title):
            writer.field("page", page)
            writer.field("index", index)
            writer.nullableField("title", title)
        case .buttonFace(let face):
            writer.writeFields(of: face, withFlash: true)
        case .event(let event):
            writer.writeFields(of: event)
        case .status(_, let status):
            writer.writeFields(of: status)
        case let .profiles(_, active, profiles):
            writer.field("active", active)
            writer.field("profiles", profiles) { $0.write($1) }
        case let .snapshots(_, profile, snapshots):
            writer.field("profile", profile)
            writer.field("snapshots", snapshots) { $0.write($1) }
        case let .export(_, profile, yaml):
            writer.field("profile", profile)
            writer.field("yaml", yaml)
        case let .paired(_, name, token, pairing):
            writer.field("name", name)
            writer.field("token", token)
            if let pairing {
                writer.field("code", pairing.code)
                writer.nullableField("link", pairing.link)
                writer.field("expires", pairing.expires)
            }
        case let .devices(_, devices):
            writer.field("devices", devices) { writer, device in
                writer.beginObject()
                writer.field("name", device.name)
                writer.field("pairedAt", device.pairedAt)
                writer.nullableField("lastSeen", device.lastSeen)
                writer.field("connected", device.connected)
                writer.endObject()
            }
        }
        writer.endObject()
        return writer.line()
    }

    /// Enough room for the whole line in most cases, so the buffer is
    /// allocated once; layouts dominate.
    private func estimatedSize(reusing encoded: EncodedLayout?) -> Int {
        switch self {
        case .welcome(_, let welcome): 256 + (encoded?.json.count ?? JSONWriter.estimatedSize(of: welcome.layout))
        case .layout(_, _, let layout, _, _): 96 + (encoded?.json.count ?? JSONWriter.estimatedSize(of: layout))
        case .export(_, _, let yaml): 96 + yaml.utf8.count + yaml.utf8.count / 8
        case .status(_, let status): 512 + status.clients.count * 96
        default: 128
        }
    }

    // MARK: Decoding (the client's side: deckctl, device apps, tests)

    /// Decodes one line the host sent. Never traps; an unknown `type` (from
    /// a newer host) fails with `unsupported`, which a client should ignore.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) throws(ProtocolError) -> HostMessage {
        try Envelope.open(line) { envelope throws(ProtocolError) in
            guard let message = try message(envelope) else {
                throw ProtocolError(.unsupported, "\(envelope.type): unknown message type (from a newer host?)", id: envelope.id)
            }
            return message
        }
    }

    /// The message of a known `type`; nil for a type this library does not know.
    private static func message(_ envelope: Envelope) throws(ProtocolError) -> HostMessage? {
        let id = envelope.id
        return try envelope.decode { fields throws(JSONError) -> HostMessage? in
            switch envelope.type {
            case "welcome":
                return .welcome(id: id, Welcome(
                    protocolLevel: try fields.int("protocol"),
                    host: try fields.decode("host", expected: HostInfo.expected) { value throws(JSONError) in
                        try HostInfo(json: value)
                    },
                    profile: try fields.string("profile"),
                    revision: try fields.int("revision"),
                    locked: try fields.bool("locked"),
                    layout: try fields.layout("layout"),
                    holdSlots: try fields.holdSlots(),
                    token: try fields.stringIfPresent("token"),
                    faces: try fields.faces()))
            case "layout":
                return .layout(profile: try fields.string("profile"), revision: try fields.int("revision"),
                               layout: try fields.layout("layout"), holdSlots: try fields.holdSlots(),
                               faces: try fields.faces())
            case "lock":
                return .lock(locked: try fields.bool("locked"))
            case "ok":
                return .ok(id: id, revision: try fields.intIfPresent("revision"))
            case "error":
                return .error(id: id,
                              code: try fields.decode("code", expected: "an error code") { value throws(JSONError) in
                                  try JSONFieldReader.oneOf(value, ErrorCode.self)
                              },
                              message: try fields.string("message"),
                              problems: try fields.arrayIfPresent("problems") { value throws(JSONError) in
                                  try Problem(json: value)
                              })
            case "pong":
                return .pong(id: id)
            case "showPage":
                return .showPage(page: try fields.int("page"))
            case "buttonState":
                return .buttonState(page: try fields.int("page"), index: try fields.int("index"),
                                    title: try fields.stringIfPresent("title"))
            case "buttonFace":
                return .buttonFace(try ButtonFace(fields: fields))
            case "event":
                return .event(try DeckEvent(fields: fields))
            case "status":
                return .status(id: id, try HostStatus(fields: fields))
            case "profiles":
                return .profiles(id: id, active: try fields.string("active"),
                                 profiles: try fields.array("profiles", of: "profiles") { value throws(JSONError) in
                                     try ProfileInfo(json: value)
                                 })
            case "snapshots":
                return .snapshots(id: id, profile: try fields.stringIfPresent("profile"),
                                  snapshots: try fields.array("snapshots", of: "snapshots") { value throws(JSONError) in
                                      try SnapshotInfo(json: value)
                                  })
            case "export":
                return .export(id: id, profile: try fields.string("profile"), yaml: try fields.string("yaml"))
            case "paired":
                let pairing = try fields.stringIfPresent("code").map { code throws(JSONError) in
                    PairingOffer(code: code, link: try fields.stringIfPresent("link"), expires: try fields.string("expires"))
                }
                return .paired(id: id, name: try fields.string("name"), token: try fields.string("token"), pairing: pairing)
            case "devices":
                return .devices(id: id, try fields.array("devices", of: "devices") { value throws(JSONError) in
                    let device = try JSONFieldReader(value, expected: "a paired device")
                    return PairedDeviceInfo(name: try device.string("name"), pairedAt: try device.string("pairedAt"),
                                            lastSeen: try device.stringIfPresent("lastSeen"),
                                            connected: try device.bool("connected"))
                })
            default:
                return nil
            }
        }
    }
}

// `"holdSlots": [[page, index], …]` (PROTOCOL.md §5): left out when empty.
extension JSONWriter {
    mutating func write(holdSlots: [DeckSlot]) {
        guard !holdSlots.isEmpty else { return }
        field("holdSlots", holdSlots) { json, slot in
            json.beginArray()
            json.int(slot.page)
            json.int(slot.index)
            json.endArray()
        }
    }
}

extension JSONFieldReader {
    /// `holdSlots`, empty when absent; each entry a `[page, index]` pair.
    func holdSlots() throws(JSONError) -> [DeckSlot] {
        try arrayIfPresent("holdSlots") { value throws(JSONError) in
            let pair = try JSONFieldReader.array(value) { value throws(JSONError) in try JSONFieldReader.int(value) }
            guard pair.count == 2, pair[0] >= 0, pair[1] >= 0 else {
                throw .invalid("a hold slot is [page, index], not \(pair.count) numbers")
            }
            return DeckSlot(page: pair[0], index: pair[1])
        }
    }
}
