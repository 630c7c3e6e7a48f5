/// Whether the X11 back end may use the keymap it read before, or must read
/// it again (a round trip for the mapping, one for the XKB state) before a
/// command: docs/plugins.md, "keys", and docs/performance.md (issue 25).
///
/// The server tells its clients when the mapping or the keyboard changes
/// (core `MappingNotify`, XKB `MapNotify`/`NewKeyboardNotify`) and, as this
/// back end selects, when the active group changes (XKB `StateNotify` with
/// the group detail). Any of those since the last command makes the next one
/// read; a connection that could not select the XKB events reads before
/// every command, as the back end always did.
struct KeymapFreshness: Sendable, Equatable {
    private enum State: Sendable, Equatable {
        /// Never read, or a change was seen since.
        case unread
        /// Read, and the server has said nothing changed since.
        case current
        /// Changes cannot be heard of: read before every command.
        case unwatched
    }

    /// What the back end does before a command.
    enum Action: Sendable, Equatable {
        /// Read the mapping and the active group, and give them to the planner.
        case read
        /// The planner's map is the server's (with the planner's own remaps).
        case useCached
    }

    private var state: State

    /// `watched`: the connection selected the XKB map, keyboard and group events.
    init(watched: Bool) {
        state = watched ? .unread : .unwatched
    }

    /// An event arrived that may mean the map or the group changed.
    mutating func changeSeen() {
        if state == .current { state = .unread }
    }

    /// A command starts: read first, or use what was read.
    mutating func commandStarts() -> Action {
        switch state {
        case .unread:
            state = .current
            return .read
        case .current:
            return .useCached
        case .unwatched:
            return .read
        }
    }
}
