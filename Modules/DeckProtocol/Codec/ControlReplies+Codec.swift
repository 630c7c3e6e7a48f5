import DeckModel

// Reading and writing the small objects that replies and events carry.
// Each `init(json:)` is the exact mirror of the `write` below it.

extension HostInfo {
    static let expected = "an object with 'name', 'version', 'protocol' and 'minProtocol'"

    init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.expected)
        self.init(name: try fields.string("name"), version: try fields.string("version"),
                  protocolLevel: try fields.int("protocol"), minimumProtocolLevel: try fields.int("minProtocol"))
    }
}

extension ClientInfo {
    static let expected = "an object with 'name', 'kind', 'address' and 'protocol'"

    init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.expected)
        self.init(name: try fields.string("name"), kind: try fields.string("kind"),
                  address: try fields.string("address"), protocolLevel: try fields.int("protocol"))
    }
}

extension Problem {
    static let expected = "an object with 'file', 'line', 'column' and 'message'"

    init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.expected)
        self.init(file: try fields.string("file"), line: try fields.int("line"),
                  column: try fields.int("column"), message: try fields.string("message"))
    }
}

extension PluginStatus {
    static let expected = "an object with 'id', 'state' and 'message'"

    init(json value: JSONValue) throws(JSONError) {
        try self.init(fields: JSONFieldReader(value, expected: Self.expected))
    }

    /// The fields without braces: a `plugin` event carries them inline.
    init(fields: JSONFieldReader) throws(JSONError) {
        self.init(id: try fields.string("id"), state: try fields.string("state"),
                  message: try fields.stringIfPresent("message") ?? "", pid: try fields.intIfPresent("pid"),
                  restarts: try fields.intIfPresent("restarts") ?? 0, lastExit: try fields.stringIfPresent("lastExit"))
    }
}

extension ProfileInfo {
    static let expected = "an object with 'name', 'file', 'pages' and 'buttons'"

    init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.expected)
        self.init(name: try fields.string("name"), file: try fields.string("file"),
                  pages: try fields.int("pages"), buttons: try fields.int("buttons"))
    }
}

extension SnapshotInfo {
    static let expected = "an object with 'generation', 'revision', 'time', 'reason' and 'bytes'"

    init(json value: JSONValue) throws(JSONError) {
        let fields = try JSONFieldReader(value, expected: Self.expected)
        self.init(generation: try fields.int("generation"), revision: try fields.int("revision"),
                  time: try fields.string("time"), reason: try fields.string("reason"), bytes: try fields.int("bytes"))
    }
}

extension HostStatus {
    /// The fields of a `status` message (its envelope already read).
    init(fields: JSONFieldReader) throws(JSONError) {
        self.init(
            host: try fields.decode("host", expected: HostInfo.expected) { value throws(JSONError) in try HostInfo(json: value) },
            profile: try fields.string("profile"),
            revision: try fields.int("revision"),
            locked: try fields.bool("locked"),
            clients: try fields.arrayIfPresent("clients") { value throws(JSONError) in try ClientInfo(json: value) },
            profiles: try fields.arrayIfPresent("profiles") { value throws(JSONError) in try JSONFieldReader.string(value) },
            problems: try fields.arrayIfPresent("problems") { value throws(JSONError) in try Problem(json: value) },
            notices: try fields.arrayIfPresent("notices") { value throws(JSONError) in try JSONFieldReader.string(value) },
            plugins: try fields.arrayIfPresent("plugins") { value throws(JSONError) in try PluginStatus(json: value) },
            tlsFingerprint: try fields.decodeIfPresent("tls") { value throws(JSONError) in
                try JSONFieldReader(value, expected: "an object with 'fingerprint'").string("fingerprint")
            })
    }
}

extension JSONWriter {
    mutating func write(_ host: HostInfo) {
        beginObject()
        field("name", host.name)
        field("version", host.version)
        field("protocol", host.protocolLevel)
        field("minProtocol", host.minimumProtocolLevel)
        endObject()
    }

    mutating func write(_ client: ClientInfo) {
        beginObject()
        field("name", client.name)
        field("kind", client.kind)
        field("address", client.address)
        field("protocol", client.protocolLevel)
        endObject()
    }

    mutating func write(_ problem: Problem) {
        beginObject()
        field("file", problem.file)
        field("line", problem.line)
        field("column", problem.column)
        field("message", problem.message)
        endObject()
    }

    /// `id`, `state` and `message` without braces (a `plugin` event carries them inline).
    mutating func writeFields(of plugin: PluginStatus) {
        field("id", plugin.id)
        field("state", plugin.state)
        field("message", plugin.message)
        field("pid", plugin.pid)
        if plugin.restarts > 0 { field("restarts", plugin.restarts) }
        field("lastExit", plugin.lastExit)
    }

    mutating func write(_ profile: ProfileInfo) {
        beginObject()
        field("name", profile.name)
        field("file", profile.file)
        field("pages", profile.pages)
        field("buttons", profile.buttons)
        endObject()
    }

    mutating func write(_ snapshot: SnapshotInfo) {
        beginObject()
        field("generation", snapshot.generation)
        field("revision", snapshot.revision)
        field("time", snapshot.time)
        field("reason", snapshot.reason)
        field("bytes", snapshot.bytes)
        endObject()
    }

    /// The fields of a `status` message after `type` and `id`; `notices` and
    /// `plugins` are left out when empty.
    mutating func writeFields(of status: HostStatus) {
        key("host")
        write(status.host)
        field("profile", status.profile)
        field("revision", status.revision)
        field("locked", status.locked)
        field("clients", status.clients) { $0.write($1) }
        field("profiles", status.profiles)
        field("problems", status.problems) { $0.write($1) }
        if !status.notices.isEmpty { field("notices", status.notices) }
        if !status.plugins.isEmpty {
            field("plugins", status.plugins) { writer, plugin in
                writer.beginObject()
                writer.writeFields(of: plugin)
                writer.endObject()
            }
        }
        if let fingerprint = status.tlsFingerprint {
            key("tls")
            beginObject()
            field("fingerprint", fingerprint)
            endObject()
        }
    }
}
