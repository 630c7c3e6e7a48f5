import DeckProtocol

/// The decision table of PROTOCOL.md §6: which requests pass while the host
/// is locked, and what a refusal sends back.
public enum LockGate {
    /// What the host does with a request.
    public enum Decision: Hashable, Sendable {
        /// Handle the request as usual.
        case pass
        /// Answer with `error` `locked` (this message), change nothing, then send
        /// the current `layout` to the refused sender only — so a device that
        /// already applied a move on its own screen comes back to the host's.
        case refuse(message: String)
    }

    /// The requests the lock stops: every edit and every press.
    public static func isGated(_ kind: RequestKind) -> Bool {
        switch kind {
        case .setButton, .clearButton, .moveButton, .press:
            true
        case .hello, .ping, .status, .lock, .unlock, .reload, .useProfile, .profiles, .snapshots,
             .restore, .export, .pair, .unpair, .subscribe, .restart, .devices, .setFace:
            false
        }
    }

    /// The decision for a request of `kind` while the host is `locked` or not.
    public static func decide(_ kind: RequestKind, locked: Bool) -> Decision {
        guard locked, isGated(kind) else { return .pass }
        let what = kind == .press ? "buttons do not run" : "the layout cannot be changed"
        return .refuse(message: "the host is locked, so \(what); unlock the desktop session or run `deckctl unlock`")
    }
}
