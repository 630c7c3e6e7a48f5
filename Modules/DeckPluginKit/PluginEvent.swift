import DeckModel

/// A line from the host to a plugin (PLUGINS.md §2, "Host → plugin").
///
/// The host encodes these with ``line()``; a plugin decodes them with
/// ``init(line:)`` (``PluginMain`` does that for a Swift plugin).
public enum PluginEvent: Hashable, Sendable {
    /// The first line a plugin reads. Answer with ``PluginMessage/ready``
    /// within 5 seconds.
    case hello(PluginHello)
    /// Every button of the live layout that uses this plugin. Sent after
    /// `ready` and again whenever that set changes.
    case buttons([PluginButton])
    /// A button of this plugin was pressed.
    case press(PluginPress)
    /// The host is stopping this plugin: exit within 2 seconds.
    case shutdown

    /// The wire name of the event (`hello`, `buttons`, `press`, `shutdown`).
    public var name: String {
        switch self {
        case .hello: "hello"
        case .buttons: "buttons"
        case .press: "press"
        case .shutdown: "shutdown"
        }
    }
}

/// The body of `hello`.
public struct PluginHello: Hashable, Sendable {
    /// The plugin protocol level the host speaks (``PluginProtocol/level``).
    public var protocolLevel: Int
    /// The host program's name (`deckd`).
    public var hostName: String
    /// The host program's version.
    public var hostVersion: String
    /// The plugin's id, from its manifest.
    public var plugin: String

    /// Makes a hello.
    public init(protocolLevel: Int = PluginProtocol.level, hostName: String, hostVersion: String, plugin: String) {
        self.protocolLevel = protocolLevel
        self.hostName = hostName
        self.hostVersion = hostVersion
        self.plugin = plugin
    }
}

/// Where a button is and what it is called: the `button` of a press.
public struct PluginButtonReference: Hashable, Sendable {
    /// 0-based page.
    public var page: Int
    /// 0-based slot on the page.
    public var index: Int
    /// The button's name (its label when no title is set).
    public var name: String

    /// Makes a reference.
    public init(page: Int, index: Int, name: String) {
        self.page = page
        self.index = index
        self.name = name
    }
}

/// One button of the live layout that uses the plugin (an entry of `buttons`).
public struct PluginButton: Hashable, Sendable {
    /// 0-based page.
    public var page: Int
    /// 0-based slot on the page.
    public var index: Int
    /// The button's name.
    public var name: String
    /// The command the button names (`{plugin: id, command: …}`).
    public var command: String
    /// The button's `settings` mapping; empty when it has none.
    public var settings: [String: DeckValue]

    /// Makes a button entry.
    public init(page: Int, index: Int, name: String, command: String, settings: [String: DeckValue] = [:]) {
        self.page = page
        self.index = index
        self.name = name
        self.command = command
        self.settings = settings
    }

    /// Where the button is, for ``PluginConnection/setTitle(_:for:)``.
    public var reference: PluginButtonReference {
        PluginButtonReference(page: page, index: index, name: name)
    }
}

/// Who pressed a button: the `device` of a press.
public struct PluginDevice: Hashable, Sendable {
    /// The device's name from its handshake (`Kim's iPhone`).
    public var name: String
    /// Its kind (`phone`, `tablet`, `terminal`, `control`, …).
    public var kind: String

    /// Makes a device description.
    public init(name: String, kind: String) {
        self.name = name
        self.kind = kind
    }
}

/// The body of `press`.
public struct PluginPress: Hashable, Sendable {
    /// Which edge of a press this is.
    public enum Phase: String, CaseIterable, Hashable, Sendable {
        /// A whole press (down and up together).
        case tap
        /// The finger went down: hold-to-talk style actions start here.
        case down
        /// The finger came up.
        case up
    }

    /// `tap`, `down` or `up`. The `down` and `up` of one button arrive in
    /// the order they were pressed.
    public var phase: Phase
    /// The command the button names.
    public var command: String
    /// The button's settings; empty when it has none.
    public var settings: [String: DeckValue]
    /// The pressed button.
    public var button: PluginButtonReference
    /// Who pressed it; nil when the host pressed it itself.
    public var device: PluginDevice?

    /// Makes a press.
    public init(phase: Phase, command: String, settings: [String: DeckValue] = [:], button: PluginButtonReference,
                device: PluginDevice?) {
        self.phase = phase
        self.command = command
        self.settings = settings
        self.button = button
        self.device = device
    }
}

/// Constants of the plugin protocol shared by the host and plugins.
public enum PluginProtocol {
    /// The protocol level this library speaks (`protocol` in `hello` and in
    /// a manifest).
    public static let level = 1
    /// The longest line a plugin may send, without its line feed
    /// (PLUGINS.md §2: 64 KiB). The host logs and drops longer ones — but
    /// for a `setImage`, which may be up to ``maximumImageLineBytes``.
    public static let maximumLineBytes = 64 << 10
    /// The longest `setImage` line, without its line feed (512 KiB, so an
    /// image of ``maximumImageBytes`` fits in base64). The host reads lines
    /// up to this long, then drops those over ``maximumLineBytes`` that are
    /// not a `setImage`.
    public static let maximumImageLineBytes = 512 << 10
    /// The largest image `setImage` may carry, in decoded bytes (256 KiB).
    public static let maximumImageBytes = 256 << 10
    /// The deepest nesting of arrays and objects in a line: message envelope
    /// plus plugin settings (16 levels in a layout).
    static let maximumDepth = 64
}

extension PluginButtonReference {
    /// How a log line names the button: `button 'Mic' at 0/2`, pages and
    /// slots from 0 as in the host's own lines and every doc.
    public var logName: String { "button '\(name)' at \(page)/\(index)" }
}

extension PluginButton {
    /// How a log line names the button: `button 'Mic' at 0/2` (``PluginButtonReference/logName``).
    public var logName: String { reference.logName }
}
