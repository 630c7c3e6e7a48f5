/// A line from a plugin to the host (PLUGINS.md §2, "Plugin → host", and
/// docs/faces.md §3 for the face messages).
///
/// A plugin encodes these with ``line()`` (``PluginConnection`` does that
/// for a Swift plugin); the host decodes them with ``init(line:)``.
public enum PluginMessage: Hashable, Sendable {
    /// The plugin is usable. Must come within 5 seconds of `hello`.
    case ready
    /// Shows `title` on the targeted buttons instead of their names on every
    /// device; nil goes back to the name. Only for this plugin's buttons.
    case setTitle(target: ButtonTarget, title: String?)
    /// Shows the state with id `state` (one the button declares in its
    /// `states`); nil goes back to state 0, the button as written.
    case setState(target: ButtonTarget, state: String?)
    /// Shows `image` (PNG, JPEG or SVG bytes, at most
    /// ``PluginProtocol/maximumImageBytes``) on the targeted buttons; nil
    /// removes it. The host sniffs the type from the bytes.
    case setImage(target: ButtonTarget, image: [UInt8]?)
    /// A one-shot red flash on the targeted buttons (something failed).
    case showAlert(target: ButtonTarget)
    /// A one-shot green flash on the targeted buttons (it worked).
    case showOk(target: ButtonTarget)
    /// Writes `message` to the host's log under the plugin's id.
    case log(level: PluginLogLevel, message: String)

    /// `setTitle` for one slot: the form before `for` targets existed.
    public static func setTitle(page: Int, index: Int, title: String?) -> PluginMessage {
        .setTitle(target: .slot(page: page, index: index), title: title)
    }

    /// The wire `type` (`ready`, `setTitle`, `setState`, `setImage`,
    /// `showAlert`, `showOk`, `log`).
    public var type: String {
        switch self {
        case .ready: "ready"
        case .setTitle: "setTitle"
        case .setState: "setState"
        case .setImage: "setImage"
        case .showAlert: "showAlert"
        case .showOk: "showOk"
        case .log: "log"
        }
    }

    /// The buttons the message addresses; nil for `ready` and `log`.
    public var target: ButtonTarget? {
        switch self {
        case .ready, .log: nil
        case .setTitle(let target, _), .setState(let target, _), .setImage(let target, _),
             .showAlert(let target), .showOk(let target): target
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
