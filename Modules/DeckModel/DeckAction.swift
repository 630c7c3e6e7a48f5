/// What pressing a button does on the host (PROFILE.md §3).
///
/// Exactly one kind per action: an action is never "run and also open".
public enum DeckAction: Hashable, Sendable {
    /// A shell command run with `/bin/sh -c`, optionally in `cwd`, killed after `timeout` seconds;
    /// `follow` is a long-running command whose output lines drive the button's face (docs/faces.md §6).
    case run(command: String, cwd: String? = nil, timeout: Double? = nil, follow: String? = nil)
    /// A URL or path handed to the desktop's opener.
    case open(String)
    /// Tells the pressing device to show another page; the layout does not change.
    case page(PageTarget)
    /// Switches the live layout to another profile.
    case profile(String)
    /// Hands the press to an out-of-process plugin.
    case plugin(id: String, command: String, settings: [String: DeckValue]? = nil)

    /// The keys that name an action's kind, in the order the contract lists them.
    public static let kindKeys = ["run", "open", "page", "profile", "plugin"]

    /// The key that names this action's kind (`run`, `open`, …).
    public var kind: String {
        switch self {
        case .run: "run"
        case .open: "open"
        case .page: "page"
        case .profile: "profile"
        case .plugin: "plugin"
        }
    }

    /// The run timeout used when an action does not give one, in seconds.
    public static let defaultRunTimeout: Double = 60
}

/// Where a `page` action sends the device.
public enum PageTarget: Hashable, Sendable {
    case next
    case previous
    /// A 0-based page number.
    case number(Int)

    /// The page this target means for a device on `current` in a layout of
    /// `pageCount` pages, kept inside the layout (never past either end).
    public func resolve(from current: Int, pageCount: Int) -> Int {
        let last = max(0, pageCount - 1)
        let wanted = switch self {
        case .next: current + 1
        case .previous: current - 1
        case .number(let page): page
        }
        return min(max(wanted, 0), last)
    }
}
