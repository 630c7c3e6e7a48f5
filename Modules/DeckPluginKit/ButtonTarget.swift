import DeckModel

/// Which buttons a face message addresses (docs/faces.md §3).
///
/// `.slot` names one button by where it is; `.matching` names every live
/// button of this plugin whose command is `command` and whose settings
/// contain each of `settings` with an equal value (a subset match; empty
/// settings match every button of that command), so one event ("muted")
/// updates every mute button on every page. A `.matching` that finds
/// nothing is not an error: the plugin may run before its buttons are live.
public enum ButtonTarget: Hashable, Sendable {
    /// The button at 0-based `page` and slot `index` of the live layout.
    case slot(page: Int, index: Int)
    /// Every live button of this plugin naming `command` whose settings
    /// contain `settings`.
    case matching(command: String, settings: [String: DeckValue] = [:])

    /// Whether `button` is one this target addresses.
    public func matches(_ button: PluginButton) -> Bool {
        switch self {
        case let .slot(page, index):
            return button.page == page && button.index == index
        case let .matching(command, settings):
            guard button.command == command else { return false }
            return settings.allSatisfy { key, value in button.settings[key] == value }
        }
    }
}

extension PluginButtonReference {
    /// This button as a ``ButtonTarget``.
    public var target: ButtonTarget { .slot(page: page, index: index) }
}

extension PluginButton {
    /// This button as a ``ButtonTarget``.
    public var target: ButtonTarget { .slot(page: page, index: index) }
}
