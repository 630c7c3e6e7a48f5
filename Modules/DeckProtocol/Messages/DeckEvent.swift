/// What subscribed control clients are told (`{"type":"event","event":KIND,…}`),
/// enough for `deckctl watch` to print one line per happening.
///
/// `by` is the client that caused it; nil when the host did it on its own
/// (a file reload, the lock probe). Buttons are named, not sent whole: the
/// layout itself travels in `layout` broadcasts.
public enum DeckEvent: Hashable, Sendable {
    /// `set`: an accepted `setButton`. `replaced` names the button that was there.
    case set(page: Int, index: Int, button: String, replaced: String?, revision: Int, by: ClientInfo?)
    /// `clear`: an accepted `clearButton`. `button` names what was removed (nil: the slot was empty).
    case clear(page: Int, index: Int, button: String?, revision: Int, by: ClientInfo?)
    /// `move`: an accepted `moveButton`. `swapped` names the button that went the other way.
    case move(fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int, button: String, swapped: String?,
              revision: Int, by: ClientInfo?)
    /// `refused`: a request answered with `error` (`request` is its type).
    case refused(request: String, code: ErrorCode, message: String, by: ClientInfo?)
    /// `press`: an accepted press.
    case press(page: Int, index: Int, button: String, phase: PressPhase, by: ClientInfo?)
    /// `action`: how a pressed button's action ended. `action` is its kind
    /// (`run`, `open`, `plugin`, …).
    case action(page: Int, index: Int, button: String, action: String, outcome: ActionOutcome, by: ClientInfo?)
    /// `lock`: the lock state changed; `source` says which source moved it.
    case lock(locked: Bool, source: LockSource, by: ClientInfo?)
    /// `join`: a client finished its handshake.
    case join(client: ClientInfo)
    /// `leave`: a handshaken client went away; `reason` is a short word
    /// (`closed`, `tooLarge`, `slow`, `unpaired`, `shutdown`).
    case leave(client: ClientInfo, reason: String)
    /// `reload`: a profile file was read again. Empty `problems` means it
    /// loaded and became live at `revision`; otherwise the live layout stayed.
    /// `dropped`: the client edits the rebase onto the new file could not keep.
    case reload(profile: String, revision: Int?, problems: [Problem], dropped: [DroppedEdit] = [], by: ClientInfo?)
    /// `profile`: the live layout switched to another profile.
    case profile(profile: String, revision: Int, by: ClientInfo?)
    /// `restore`: a snapshot became the live layout.
    case restore(profile: String, generation: Int, revision: Int, by: ClientInfo?)
    /// `plugin`: a plugin changed state.
    case plugin(PluginStatus)
    /// An event kind this library does not know (from a newer host); decoded
    /// rather than refused so that `deckctl watch` keeps going.
    case unknown(kind: String)

    /// The wire `event` field.
    public var kind: String {
        switch self {
        case .set: "set"
        case .clear: "clear"
        case .move: "move"
        case .refused: "refused"
        case .press: "press"
        case .action: "action"
        case .lock: "lock"
        case .join: "join"
        case .leave: "leave"
        case .reload: "reload"
        case .profile: "profile"
        case .restore: "restore"
        case .plugin: "plugin"
        case .unknown(let kind): kind
        }
    }
}

/// Which lock source changed (§6).
public enum LockSource: String, CaseIterable, Hashable, Sendable {
    /// `deckctl lock` / `unlock`.
    case manual
    /// The `--lock-probe` command following the desktop session's lock.
    case probe
}

/// How a pressed button's action ended, reported in an `action` event.
public enum ActionOutcome: Hashable, Sendable {
    /// `run` finished with this exit status (0 is success).
    case exited(status: Int)
    /// `run` was ended by a signal it did not get from the host's timeout.
    case signalled(signal: Int)
    /// `run` was still going after its timeout and was killed.
    case timedOut(seconds: Double)
    /// The press was handed to the plugin (what the plugin does with it is its own business).
    case delivered
    /// `open` found no opener (`xdg-open`) to run.
    case openerMissing
    /// The plugin could not take the press (not started, failed, unknown id).
    case pluginUnavailable(plugin: String)
    /// The action could not start or ended badly for another reason.
    case failed(reason: String)

    /// The wire `outcome` field.
    public var name: String {
        switch self {
        case .exited: "exited"
        case .signalled: "signalled"
        case .timedOut: "timedOut"
        case .delivered: "delivered"
        case .openerMissing: "openerMissing"
        case .pluginUnavailable: "pluginUnavailable"
        case .failed: "failed"
        }
    }

    /// True for an exit status of 0 and for a press delivered to its plugin.
    public var succeeded: Bool { self == .exited(status: 0) || self == .delivered }
}
