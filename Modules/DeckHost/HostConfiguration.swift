import DeckModel
import DeckPlugins
import Glibc

/// Every option of `deckd` (CLI.md), with its default already filled in.
///
/// Made by ``HostArguments/parse(_:environment:)`` from a command line, or
/// directly by code that embeds the host (tests, tools).
public struct HostConfiguration: Sendable, Equatable {
    /// The layouts folder (`--layouts`).
    public var layouts: String
    /// Whether a missing layouts folder is created (mode 0700) rather than
    /// refused: true for the default folder, so a fresh install started by
    /// systemd serves an empty layout instead of exiting; false for a folder
    /// given with `--layouts`, where a missing one is more likely a typo.
    public var createsLayouts: Bool
    /// The state folder: snapshots, tokens, the last live profile (`--state`).
    public var state: String
    /// The profile to serve at start (`--profile`); nil: the last live one,
    /// else `default`, else the first by name.
    public var profile: String?
    /// `HOST:PORT` to serve devices on (`--listen`); nil with `--no-tcp`.
    public var listen: String?
    /// The control socket's path (`--control`).
    public var control: String
    /// The plugins folders (`--plugins`, which may be given several times),
    /// searched in this order.
    public var plugins: [String]
    /// The command that opens `open` actions (`--opener`); nil: `xdg-open`.
    public var opener: String?
    /// A shell command whose output says whether the desktop is locked (`--lock-probe`).
    public var lockProbe: String?
    /// Snapshot generations kept per profile (`--keep`).
    public var keep: Int
    /// Whether generations are appended to the snapshot journal (the
    /// default) or each written as a file of its own (`--no-journal`).
    public var journal = true
    /// The longest line a client may send, in bytes (`--max-message`).
    public var maxMessage: Int
    /// The longest first line (the `hello`), in bytes: 64 KiB, or
    /// `maxMessage` when that is less. A `hello` holds a name (≤ 128
    /// characters), a kind and a token; before it a peer is anyone, and each
    /// unfinished line is held for up to the 10 s allowed before `hello`
    /// (`--max-connections` of them: 16 MiB at the defaults, not 256 MiB).
    public var maxHelloBytes: Int { min(Self.helloLineLimit, maxMessage) }
    /// ``maxHelloBytes`` when `--max-message` is larger.
    public static let helloLineLimit = 64 << 10
    /// Connections held at once per listener (`--max-connections`).
    public var maxConnections: Int
    /// Whether every TCP peer, loopback included, needs a token (`--require-token`).
    public var requireToken: Bool
    /// The least important log lines written (`--log-level`).
    public var logLevel: LogLevel
    /// How long a new connection may take to send `hello` (hidden `--hello-timeout`, for tests).
    public var helloTimeout: Duration
    /// Seconds between runs of the lock probe (hidden `--lock-probe-interval`, for tests).
    public var lockProbeInterval: Duration
    /// `PATH`, where plugin programs named without a `/` are looked for
    /// (from the environment).
    public var searchPath: String?
    /// How long after a batch its devices are waited for (``BatchGather``;
    /// hidden `--gather-window`, for tests that need the wait long).
    public var gatherWindow: Duration
    /// Plugin supervision timings and bounds (PLUGINS.md §3); hidden options
    /// shorten them for tests (`--plugin-restart-delay`, `--plugin-ready-timeout`).
    public var pluginPolicy: PluginPolicy
    /// `run` and `open` actions running at once, at most (hidden `--max-running-actions`).
    public var maxRunningActions: Int
    /// Actions waiting for one of those places, at most; more presses end
    /// with a `failed` outcome (hidden `--max-queued-actions`).
    public var maxQueuedActions: Int
    /// TLS on the device port and the web listener (`--tls auto`,
    /// `--tls-cert`/`--tls-key`); nil: plain TCP and HTTP.
    public var tls: TLSSetting?
    /// The largest layout, as JSON bytes, that an edit from a client may grow
    /// it to (default ``DeckConstants/maximumLayoutBytes``, whose reasons it
    /// has). Without a bound one client could grow the layout (names have no
    /// length limit, pages go to 10,000) until each broadcast fills the other
    /// clients' 8 MiB output queues and closes them all. Profile files are
    /// held to it too: one larger is refused at load with a problem at the
    /// file. An edit that does not grow a larger layout (a move, a clear) is
    /// always allowed.
    public var maxLayoutBytes: Int
    /// `HOST:PORT` of the web listener (`--web`, WEB.md §1); nil with `--no-web`.
    public var web: String?
    /// Origins besides the page's own that may open the WebSocket (`--web-origin`).
    public var webOrigins: [String]
    /// The address pairing links use (`--web-url`); nil: the machine's first
    /// non-loopback address when the listener is on a wildcard address, else the listener's own.
    public var webURL: String?
    /// The web app's folder (`--web-root`); nil: the one installed beside deckd
    /// (PREFIX/share/deckd/web), and when there is none `/` says the app is not installed.
    public var webRoot: String?
    /// How long a pairing code is good for (WEB.md §3: 5 minutes; hidden `--pairing-lifetime` for tests).
    public var pairingLifetime: Duration

    /// The user's plugins folder, then the example plugins beside this deckd
    /// (``PluginFolders/defaults(user:executable:)``, which `deckctl check` uses too).
    static func defaultPluginFolders(user: String, executable: String? = PluginFolders.executablePath()) -> [String] {
        PluginFolders.defaults(user: user, executable: executable)
    }

    /// The defaults of CLI.md for this user and environment.
    public static func defaults(environment: [String: String]) -> HostConfiguration {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        func xdg(_ variable: String, _ fallback: String) -> String {
            // The XDG spec says to ignore relative values.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        let control: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            control = runtime + "/deckd/control.sock"
        } else {
            control = "/tmp/deckd-\(getuid())/control.sock"
        }
        return HostConfiguration(
            layouts: xdg("XDG_CONFIG_HOME", ".config") + "/deckd/layouts",
            createsLayouts: true,
            state: xdg("XDG_STATE_HOME", ".local/state") + "/deckd",
            profile: nil,
            listen: "127.0.0.1:7531",
            control: control,
            plugins: Self.defaultPluginFolders(user: xdg("XDG_DATA_HOME", ".local/share") + "/deckd/plugins"),
            opener: nil,
            lockProbe: nil,
            keep: 100,
            maxMessage: 1 << 20,
            maxConnections: 256,
            requireToken: false,
            logLevel: .info,
            helloTimeout: .seconds(10),
            lockProbeInterval: .seconds(2),
            searchPath: environment["PATH"],
            gatherWindow: .milliseconds(2),
            pluginPolicy: PluginPolicy(),
            maxRunningActions: 16,
            maxQueuedActions: 256,
            tls: nil,
            maxLayoutBytes: DeckConstants.maximumLayoutBytes,
            web: "127.0.0.1:7532",
            webOrigins: [],
            webURL: nil,
            webRoot: nil,
            pairingLifetime: .seconds(300))
    }
}
