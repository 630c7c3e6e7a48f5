import DeckModel

/// Everything the host sends: replies (which echo the request's `id`) and
/// broadcasts (which have none). PROTOCOL.md §2, §4–§8.
public enum HostMessage: Hashable, Sendable {
    /// The answer to `hello`.
    case welcome(id: RequestID?, Welcome)
    /// The current layout, sent to every client after each edit (§5) and to a
    /// sender refused while locked (§6).
    case layout(profile: String, revision: Int, layout: DeckLayout, holdSlots: [DeckSlot] = [], faces: [ButtonFace] = [])
    /// A change of the lock state, sent to every client (§6).
    case lock(locked: Bool)
    /// Success. `revision` is the layout's revision after the request, for
    /// requests that concern the layout; nil otherwise.
    case ok(id: RequestID?, revision: Int?)
    /// Refusal. `problems` lists a profile's problems (a failed `reload`).
    case error(id: RequestID?, code: ErrorCode, message: String, problems: [Problem] = [])
    /// The answer to `ping`.
    case pong(id: RequestID?)
    /// Tells the client that pressed a `page` button which page to show (§8).
    case showPage(page: Int)
    /// A plugin changed a button's title; nil goes back to the button's name (§8).
    case buttonState(page: Int, index: Int, title: String?)
    /// A button's face changed (protocol level 8, docs/faces.md §4): the whole face.
    case buttonFace(ButtonFace)
    /// Something happened; only for subscribed control clients.
    case event(DeckEvent)
    /// The answer to `status`.
    case status(id: RequestID?, HostStatus)
    /// The answer to `profiles`.
    case profiles(id: RequestID?, active: String, profiles: [ProfileInfo])
    /// The answer to `snapshots`, newest first. `profile` says whose.
    case snapshots(id: RequestID?, profile: String?, snapshots: [SnapshotInfo])
    /// The answer to `export`: a layout as profile YAML.
    case export(id: RequestID?, profile: String, yaml: String)
    /// The answer to `pair`: a new device token, and its one-time pairing code (WEB.md §3).
    case paired(id: RequestID?, name: String, token: String, pairing: PairingOffer? = nil)
    /// The answer to `devices` (WEB.md §3).
    case devices(id: RequestID?, [PairedDeviceInfo])

    /// The echoed request id; nil for broadcasts and for requests sent without one.
    public var id: RequestID? {
        switch self {
        case .welcome(let id, _), .ok(let id, _), .error(let id, _, _, _), .pong(let id), .status(let id, _),
             .profiles(let id, _, _), .snapshots(let id, _, _), .export(let id, _, _), .paired(let id, _, _, _),
             .devices(let id, _):
            id
        case .layout, .lock, .showPage, .buttonState, .buttonFace, .event:
            nil
        }
    }

    /// The wire `type`.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .layout: "layout"
        case .lock: "lock"
        case .ok: "ok"
        case .error: "error"
        case .pong: "pong"
        case .showPage: "showPage"
        case .buttonState: "buttonState"
        case .buttonFace: "buttonFace"
        case .event: "event"
        case .status: "status"
        case .profiles: "profiles"
        case .snapshots: "snapshots"
        case .export: "export"
        case .paired: "paired"
        case .devices: "devices"
        }
    }
}

/// The body of `welcome` (§2).
public struct Welcome: Hashable, Sendable {
    /// The negotiated level, `min(client, host)`.
    public var protocolLevel: Int
    /// The host's name, version and levels.
    public var host: HostInfo
    /// The live profile's name.
    public var profile: String
    /// The live layout's revision.
    public var revision: Int
    /// Whether the host is locked right now.
    public var locked: Bool
    /// The live layout.
    public var layout: DeckLayout
    /// Slots whose button runs a plugin command declared `hold: true`
    /// (PROTOCOL.md §5): press them with `down`/`up`; a hold opens no settings.
    public var holdSlots: [DeckSlot]
    /// The device token, for a device that paired with a pairing code (WEB.md §3): keep it, present it from then on.
    public var token: String?
    /// Every non-default face (level 8 and up; docs/faces.md §4); left out when empty.
    public var faces: [ButtonFace]

    /// Makes a welcome.
    public init(protocolLevel: Int, host: HostInfo, profile: String, revision: Int, locked: Bool, layout: DeckLayout,
                holdSlots: [DeckSlot] = [], token: String? = nil, faces: [ButtonFace] = []) {
        self.faces = faces
        self.protocolLevel = protocolLevel
        self.host = host
        self.profile = profile
        self.revision = revision
        self.locked = locked
        self.layout = layout
        self.holdSlots = holdSlots
        self.token = token
    }
}

/// The pairing code `pair` made with a token (WEB.md §3).
public struct PairingOffer: Hashable, Sendable {
    /// `XXXX-XXXX`, Crockford base32; good once.
    public var code: String
    /// `WEBURL/#pair=CODE`; nil without a web listener.
    public var link: String?
    /// When the code stops working (ISO 8601, UTC).
    public var expires: String

    /// Makes one.
    public init(code: String, link: String?, expires: String) {
        self.code = code
        self.link = link
        self.expires = expires
    }
}

/// One paired device in a `devices` reply.
public struct PairedDeviceInfo: Hashable, Sendable {
    /// The name it was paired as.
    public var name: String
    /// When (ISO 8601, UTC).
    public var pairedAt: String
    /// When it last connected or left since the host started; nil if not seen since.
    public var lastSeen: String?
    /// Whether it is connected now.
    public var connected: Bool

    /// Makes one.
    public init(name: String, pairedAt: String, lastSeen: String?, connected: Bool) {
        self.name = name
        self.pairedAt = pairedAt
        self.lastSeen = lastSeen
        self.connected = connected
    }
}

/// `{"name","version","protocol","minProtocol"}`: who the host is.
public struct HostInfo: Hashable, Sendable {
    /// `deckd`.
    public var name: String
    /// The host's version, e.g. `0.1.0`.
    public var version: String
    /// The highest level the host speaks.
    public var protocolLevel: Int
    /// The lowest client level the host serves.
    public var minimumProtocolLevel: Int

    /// Makes a host description; the levels default to this library's.
    public init(name: String = "deckd", version: String,
                protocolLevel: Int = ProtocolLevel.current, minimumProtocolLevel: Int = ProtocolLevel.minimum) {
        self.name = name
        self.version = version
        self.protocolLevel = protocolLevel
        self.minimumProtocolLevel = minimumProtocolLevel
    }
}
