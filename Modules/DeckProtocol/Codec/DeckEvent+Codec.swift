import DeckModel

// The wire form of events: `{"type":"event","event":KIND, …fields}`.

extension DeckEvent {
    /// Reads the fields of an `event` message (its envelope already read).
    init(fields: JSONFieldReader) throws(JSONError) {
        let kind = try fields.string("event")
        let by = try fields.decodeIfPresent("by") { value throws(JSONError) in try ClientInfo(json: value) }
        switch kind {
        case "set":
            self = .set(page: try fields.int("page"), index: try fields.int("index"), button: try fields.string("button"),
                        replaced: try fields.stringIfPresent("replaced"), revision: try fields.int("revision"), by: by)
        case "clear":
            self = .clear(page: try fields.int("page"), index: try fields.int("index"),
                          button: try fields.stringIfPresent("button"), revision: try fields.int("revision"), by: by)
        case "move":
            self = .move(fromPage: try fields.int("fromPage"), fromIndex: try fields.int("fromIndex"),
                         toPage: try fields.int("toPage"), toIndex: try fields.int("toIndex"),
                         button: try fields.string("button"), swapped: try fields.stringIfPresent("swapped"),
                         revision: try fields.int("revision"), by: by)
        case "refused":
            self = .refused(request: try fields.string("request"),
                            code: try fields.decode("code", expected: "an error code") { value throws(JSONError) in
                                try JSONFieldReader.oneOf(value, ErrorCode.self)
                            },
                            message: try fields.string("message"), by: by)
        case "press":
            self = .press(page: try fields.int("page"), index: try fields.int("index"), button: try fields.string("button"),
                          phase: try fields.decode("phase", expected: "tap, down or up") { value throws(JSONError) in
                              try JSONFieldReader.oneOf(value, PressPhase.self)
                          },
                          by: by)
        case "action":
            self = .action(page: try fields.int("page"), index: try fields.int("index"), button: try fields.string("button"),
                           action: try fields.string("action"), outcome: try ActionOutcome(fields: fields), by: by)
        case "lock":
            self = .lock(locked: try fields.bool("locked"),
                         source: try fields.decode("source", expected: "manual or probe") { value throws(JSONError) in
                             try JSONFieldReader.oneOf(value, LockSource.self)
                         },
                         by: by)
        case "join":
            self = .join(client: try fields.decode("client", expected: ClientInfo.expected) { value throws(JSONError) in
                try ClientInfo(json: value)
            })
        case "leave":
            self = .leave(client: try fields.decode("client", expected: ClientInfo.expected) { value throws(JSONError) in
                try ClientInfo(json: value)
            }, reason: try fields.stringIfPresent("reason") ?? "closed")
        case "reload":
            self = .reload(profile: try fields.string("profile"), revision: try fields.intIfPresent("revision"),
                           problems: try fields.arrayIfPresent("problems") { value throws(JSONError) in try Problem(json: value) },
                           dropped: try fields.arrayIfPresent("dropped") { value throws(JSONError) in try DroppedEdit(json: value) },
                           by: by)
        case "profile":
            self = .profile(profile: try fields.string("profile"), revision: try fields.int("revision"), by: by)
        case "restore":
            self = .restore(profile: try fields.string("profile"), generation: try fields.int("generation"),
                            revision: try fields.int("revision"), by: by)
        case "plugin":
            self = .plugin(try PluginStatus(fields: fields))
        default:
            self = .unknown(kind: kind)
        }
    }
}

extension ActionOutcome {
    /// Reads `outcome` and the field that goes with it.
    init(fields: JSONFieldReader) throws(JSONError) {
        let name = try fields.string("outcome")
        switch name {
        case "exited": self = .exited(status: try fields.int("status"))
        case "signalled": self = .signalled(signal: try fields.int("signal"))
        case "timedOut":
            self = .timedOut(seconds: try fields.seconds("timeout"))
        case "delivered": self = .delivered
        case "openerMissing": self = .openerMissing
        case "pluginUnavailable": self = .pluginUnavailable(plugin: try fields.string("plugin"))
        case "failed": self = .failed(reason: try fields.string("reason"))
        default:
            throw JSONError.wrongType(
                expected: "exited, signalled, timedOut, delivered, openerMissing, pluginUnavailable or failed",
                got: "'\(name)'").inside("outcome")
        }
    }
}

extension JSONWriter {
    /// The fields of an `event` message after its `type`.
    mutating func writeFields(of event: DeckEvent) {
        field("event", event.kind)
        switch event {
        case let .set(page, index, button, replaced, revision, by):
            slot("page", page, "index", index)
            field("button", button)
            field("replaced", replaced)
            finish(revision: revision, by: by)
        case let .clear(page, index, button, revision, by):
            slot("page", page, "index", index)
            field("button", button)
            finish(revision: revision, by: by)
        case let .move(fromPage, fromIndex, toPage, toIndex, button, swapped, revision, by):
            slot("fromPage", fromPage, "fromIndex", fromIndex)
            slot("toPage", toPage, "toIndex", toIndex)
            field("button", button)
            field("swapped", swapped)
            finish(revision: revision, by: by)
        case let .refused(request, code, message, by):
            field("request", request)
            field("code", code.rawValue)
            field("message", message)
            finish(revision: nil, by: by)
        case let .press(page, index, button, phase, by):
            slot("page", page, "index", index)
            field("button", button)
            field("phase", phase.rawValue)
            finish(revision: nil, by: by)
        case let .action(page, index, button, action, outcome, by):
            slot("page", page, "index", index)
            field("button", button)
            field("action", action)
            writeFields(of: outcome)
            finish(revision: nil, by: by)
        case let .lock(locked, source, by):
            field("locked", locked)
            field("source", source.rawValue)
            finish(revision: nil, by: by)
        case .join(let client):
            key("client")
            write(client)
        case let .leave(client, reason):
            key("client")
            write(client)
            field("reason", reason)
        case let .reload(profile, revision, problems, dropped, by):
            field("profile", profile)
            field("ok", problems.isEmpty)
            field("problems", problems) { $0.write($1) }
            if !dropped.isEmpty { field("dropped", dropped) { $0.write($1) } }
            finish(revision: revision, by: by)
        case let .profile(profile, revision, by):
            field("profile", profile)
            finish(revision: revision, by: by)
        case let .restore(profile, generation, revision, by):
            field("profile", profile)
            field("generation", generation)
            finish(revision: revision, by: by)
        case .plugin(let plugin):
            writeFields(of: plugin)
        case .unknown:
            break
        }
    }

    private mutating func writeFields(of outcome: ActionOutcome) {
        field("outcome", outcome.name)
        switch outcome {
        case .exited(let status): field("status", status)
        case .signalled(let signal): field("signal", signal)
        case .timedOut(let seconds): field("timeout", seconds)
        case .delivered, .openerMissing: break
        case .pluginUnavailable(let plugin): field("plugin", plugin)
        case .failed(let reason): field("reason", reason)
        }
    }

    private mutating func slot(_ pageKey: StaticString, _ page: Int, _ indexKey: StaticString, _ index: Int) {
        field(pageKey, page)
        field(indexKey, index)
    }

    private mutating func finish(revision: Int?, by: ClientInfo?) {
        field("revision", revision)
        if let by {
            key("by")
            write(by)
        }
    }
}

extension DroppedEdit {
    init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: "a dropped edit object")
        self.init(button: try fields.stringIfPresent("button"), page: try fields.int("page"), index: try fields.int("index"),
                  edit: try fields.string("edit"), reason: try fields.string("reason"), generation: try fields.int("generation"))
    }
}

extension JSONWriter {
    mutating func write(_ dropped: DroppedEdit) {
        beginObject()
        field("button", dropped.button)
        field("page", dropped.page)
        field("index", dropped.index)
        field("edit", dropped.edit)
        field("reason", dropped.reason)
        field("generation", dropped.generation)
        endObject()
    }
}
