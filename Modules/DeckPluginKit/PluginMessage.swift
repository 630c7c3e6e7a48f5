/// A line from a plugin to the host (PLUGINS.md §2, "Plugin → host").
///
/// A plugin encodes these with ``line()`` (``PluginConnection`` does that
/// for a Swift plugin); the host decodes them with ``init(line:)``.
public enum PluginMessage: Hashable, Sendable {
    /// The plugin is usable. Must come within 5 seconds of `hello`.
    case ready
    /// Shows `title` on the button at `page`/`index` instead of its name on
    /// every device; nil goes back to the name. Only for this plugin's buttons.
    case setTitle(page: Int, index: Int, title: String?)
    /// Writes `message` to the host's log under the plugin's id.
    case log(level: PluginLogLevel, message: String)
    /// One sentence on how the plugin is doing (`connected to OBS 29.0.2`),
    /// shown by `deckctl plugins` while it runs; nil clears it. Forgotten when the process ends.
    case setStatus(String?)

    /// The wire `type` (`ready`, `setTitle`, `log`, `setStatus`).
    public var type: String {
        switch self {
        case .ready: "ready"
        case .setTitle: "setTitle"
        case .log: "log"
        case .setStatus: "setStatus"
        }
    }
}

/// How important a plugin's `log` line is: the host log's levels.
public enum PluginLogLevel: String, CaseIterable, Hashable, Sendable, Comparable {
    /// Details for finding a fault; hidden unless the host runs with `--log-level debug`.
    case debug
    /// Something worth a line in the log (the default).
    case info
    /// Something went wrong and the plugin carries on.
    case warning
    /// Something failed.
    case error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    /// Orders by importance: `debug` < `info` < `warning` < `error`.
    public static func < (lhs: PluginLogLevel, rhs: PluginLogLevel) -> Bool { lhs.rank < rhs.rank }
}
