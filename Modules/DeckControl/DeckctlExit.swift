/// deckctl's exit statuses (CLI.md).
public enum DeckctlExit: Int32, Sendable {
    /// Done.
    case ok = 0
    /// The host refused the request.
    case refused = 1
    /// Bad arguments, or a command this build does not have yet.
    case usage = 2
    /// No host answering on the control socket.
    case noHost = 3
    /// `check` found problems (EX_DATAERR).
    case problems = 65
}
