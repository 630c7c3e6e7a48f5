/// The body of a `status` reply (§7), plus `notices` and `plugins`.
public struct HostStatus: Hashable, Sendable {
    /// The host's name, version and levels.
    public var host: HostInfo
    /// The live profile.
    public var profile: String
    /// The live layout's revision.
    public var revision: Int
    /// Whether the host is locked (by any source).
    public var locked: Bool
    /// Every handshaken connection.
    public var clients: [ClientInfo]
    /// The names of every profile in the layouts folder.
    public var profiles: [String]
    /// Problems of profile files (a broken file that could not be loaded).
    public var problems: [Problem]
    /// Things a person should know, one sentence each ("newest snapshot 42 of
    /// 'default' was corrupt; resumed generation 41"). Left out of the wire when empty.
    public var notices: [String]
    /// The state of each plugin. Left out of the wire when empty.
    public var plugins: [PluginStatus]
    /// With TLS on, the SHA-256 fingerprint of the certificate the host
    /// serves (64 lowercase hex digits), on the wire as `"tls":{"fingerprint":…}`;
    /// nil (left out) when the host serves plain TCP and HTTP.
    public var tlsFingerprint: String?

    /// Makes a status.
    public init(host: HostInfo, profile: String, revision: Int, locked: Bool, clients: [ClientInfo] = [],
                profiles: [String] = [], problems: [Problem] = [], notices: [String] = [], plugins: [PluginStatus] = [],
                tlsFingerprint: String? = nil) {
        self.tlsFingerprint = tlsFingerprint
        self.host = host
        self.profile = profile
        self.revision = revision
        self.locked = locked
        self.clients = clients
        self.profiles = profiles
        self.problems = problems
        self.notices = notices
        self.plugins = plugins
    }
}

/// `{"name","kind","address","protocol"}`: one connected client, in `status`
/// and as the `by` of an event.
public struct ClientInfo: Hashable, Sendable {
    /// The `device.name` of its hello.
    public var name: String
    /// The `device.kind` of its hello.
    public var kind: String
    /// `HOST:PORT` for TCP (`[::1]:53422` for IPv6), `control` for the control socket.
    public var address: String
    /// The negotiated level.
    public var protocolLevel: Int

    /// Describes a client.
    public init(name: String, kind: String, address: String, protocolLevel: Int) {
        self.name = name
        self.kind = kind
        self.address = address
        self.protocolLevel = protocolLevel
    }
}

/// `{"file","line","column","message"}`: one problem of a profile file,
/// 1-based as in `FILE:LINE:COLUMN: message`.
public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The file, as the host names it (relative to the layouts folder).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What is wrong, as a sentence.
    public var message: String

    /// Makes a problem.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// `{"id","state","message"}`: how a plugin is doing.
public struct PluginStatus: Hashable, Sendable {
    /// The plugin's id.
    public var id: String
    /// `stopped`, `starting`, `running`, `restarting`, `failed` or
    /// `unavailable` (a broken manifest); kept a string so a newer host's
    /// states still decode.
    public var state: String
    /// A sentence about the state (the last failure, say); may be empty.
    public var message: String
    /// The running process's pid (nil: none runs).
    public var pid: Int?
    /// How many times the host started it again since deckd started
    /// (after it exited or broke, a reload that changed it, `deckctl restart`).
    public var restarts: Int
    /// How its last process ended (`exited with status 3`); nil: none has yet.
    public var lastExit: String?

    /// Makes a plugin status.
    public init(id: String, state: String, message: String = "", pid: Int? = nil, restarts: Int = 0, lastExit: String? = nil) {
        self.id = id
        self.state = state
        self.message = message
        self.pid = pid
        self.restarts = restarts
        self.lastExit = lastExit
    }
}

/// `{"name","file","pages","buttons"}`: one profile in a `profiles` reply.
public struct ProfileInfo: Hashable, Sendable {
    /// The profile's name (`name:` in the file, else the file's stem).
    public var name: String
    /// The file name inside the layouts folder.
    public var file: String
    /// Pages in the profile's layout.
    public var pages: Int
    /// Buttons in the profile's layout.
    public var buttons: Int

    /// Makes a profile description.
    public init(name: String, file: String, pages: Int, buttons: Int) {
        self.name = name
        self.file = file
        self.pages = pages
        self.buttons = buttons
    }
}

/// `{"generation","revision","time","reason","bytes"}`: one snapshot.
public struct SnapshotInfo: Hashable, Sendable {
    /// The snapshot's number; `restore` takes it.
    public var generation: Int
    /// The layout revision it holds.
    public var revision: Int
    /// When it was written, RFC 3339 UTC (`2026-11-29T16:40:00Z`).
    public var time: String
    /// Why: `load`, `setButton`, `clearButton`, `moveButton`, `reload`, `restore`, `useProfile`.
    public var reason: String
    /// Its size on disk.
    public var bytes: Int

    /// Makes a snapshot description.
    public init(generation: Int, revision: Int, time: String, reason: String, bytes: Int) {
        self.generation = generation
        self.revision = revision
        self.time = time
        self.reason = reason
        self.bytes = bytes
    }
}
