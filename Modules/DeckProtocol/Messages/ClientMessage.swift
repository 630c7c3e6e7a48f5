import DeckModel

/// One line from a client: a request and the `id` its reply must echo.
public struct ClientMessage: Hashable, Sendable {
    /// The request's id, echoed on its reply; nil when the client sent none.
    public var id: RequestID?
    /// What the client asks for.
    public var request: ClientRequest

    /// Makes a message, for clients (`deckctl`, device apps, tests) to encode.
    public init(id: RequestID? = nil, _ request: ClientRequest) {
        self.id = id
        self.request = request
    }

    /// The request's wire `type`, which the level table is keyed by.
    public var kind: RequestKind { request.kind }
}

/// Everything a client may send (PROTOCOL.md §2, §4 and §7).
public enum ClientRequest: Hashable, Sendable {
    /// The first message of every connection (§2).
    case hello(Hello)
    /// Puts `button` in a slot, replacing what is there.
    case setButton(page: Int, index: Int, button: DeckButton)
    /// Empties a slot; with `expecting`, only if the slot still holds that button.
    case clearButton(page: Int, index: Int, expecting: DeckButton?)
    /// Moves the button in one slot to another (a swap when the target is
    /// filled), refused as `stale` when the source no longer holds `button`. Level 7.
    case moveButton(fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int, button: DeckButton)
    /// Runs a slot's action; with `button`, only if the slot still holds it.
    case press(page: Int, index: Int, button: DeckButton?, phase: PressPhase)
    /// Answered with `pong`.
    case ping
    // Control requests (§7): only a `control` client on the control socket.
    /// Answered with a `status` message.
    case status
    /// Turns the manual lock on.
    case lock
    /// Turns the manual lock off.
    case unlock
    /// Re-reads the profile files now.
    case reload
    /// Switches the live layout to the named profile.
    case useProfile(name: String)
    /// Answered with a `profiles` message.
    case profiles
    /// Answered with a `snapshots` message for `profile` (nil: the live profile).
    case snapshots(profile: String?)
    /// Makes a snapshot generation the live layout.
    case restore(generation: Int)
    /// Answered with an `export` message: `profile`'s layout as YAML (nil: the live profile).
    case export(profile: String?)
    /// Makes a device token, answered with `paired`.
    case pair(name: String)
    /// Forgets a device token and closes that device's connections.
    case unpair(name: String)
    /// From now on, this control client also gets broadcasts and events.
    case subscribe
    /// Restarts the plugin with this id now (`deckctl restart PLUGIN`);
    /// with `reset`, its state folder is emptied first (`deckctl plugins ID --reset`).
    case restartPlugin(id: String, reset: Bool = false)
    /// Answered with `devices`: the paired devices (WEB.md §3).
    case devices
    /// `setFace` (level 8, control; docs/faces.md §5): shows state `state`
    /// and/or title `title` on a button; `clear` sets the face back to default first.
    case setFace(page: Int, index: Int, state: String?, title: String?, clear: Bool)

    /// The wire `type` of this request.
    public var kind: RequestKind {
        switch self {
        case .hello: .hello
        case .setButton: .setButton
        case .clearButton: .clearButton
        case .moveButton: .moveButton
        case .press: .press
        case .ping: .ping
        case .status: .status
        case .lock: .lock
        case .unlock: .unlock
        case .reload: .reload
        case .useProfile: .useProfile
        case .profiles: .profiles
        case .snapshots: .snapshots
        case .restore: .restore
        case .export: .export
        case .pair: .pair
        case .unpair: .unpair
        case .subscribe: .subscribe
        case .restartPlugin: .restart
        case .devices: .devices
        case .setFace: .setFace
        }
    }
}

/// The `hello` of PROTOCOL.md §2.
public struct Hello: Hashable, Sendable {
    /// The highest protocol level the client speaks (the wire `protocol`).
    public var protocolLevel: Int
    /// Who is connecting.
    public var device: Device
    /// A token made by `deckctl pair`; needed on non-loopback TCP.
    public var token: String?
    /// A one-time pairing code shown by `deckctl pair` (WEB.md §3), instead of a token.
    public var pairingCode: String?

    /// Makes a hello; `protocolLevel` defaults to what this library speaks.
    public init(protocolLevel: Int = ProtocolLevel.current, device: Device, token: String? = nil,
                pairingCode: String? = nil) {
        self.protocolLevel = protocolLevel
        self.device = device
        self.token = token
        self.pairingCode = pairingCode
    }
}

/// The `device` of a `hello`.
public struct Device: Hashable, Sendable {
    /// A name a person recognizes ("Kim's iPhone"); shown in logs and events.
    public var name: String
    /// `phone`, `tablet`, `terminal`, `control`, or any other string.
    public var kind: String

    /// The longest `name` and `kind` a host takes (Unicode scalars), and the
    /// longest name `pair` gives: names go into every `status` reply and log
    /// line, and ten devices of a million characters each made `status`
    /// larger than a control client's output queue.
    public static let maximumNameLength = 128

    /// Makes a device description.
    public init(name: String, kind: String) {
        self.name = name
        self.kind = kind
    }

    /// The kind that `deckctl` uses; accepted only on the control socket.
    public static let controlKind = "control"

    /// True for `kind: "control"`.
    public var isControl: Bool { kind == Self.controlKind }
}

/// Which edge of a press a `press` request carries (§4).
public enum PressPhase: String, CaseIterable, Hashable, Sendable {
    /// A whole press (the default).
    case tap
    /// The finger went down (hold-to-talk style actions).
    case down
    /// The finger came up.
    case up
}
