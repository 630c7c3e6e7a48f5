/// Everything that stops `deckd` or one of its parts, as a sentence a person can act on.
public enum HostError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bad command-line option (exit 2).
    case usage(String)
    /// A configuration that leaves nothing to serve (exit 78).
    case configuration(String)
    /// A failure while starting or running (exit 1).
    case runtime(String)

    /// The sentence.
    public var description: String {
        switch self {
        case .usage(let message), .configuration(let message), .runtime(let message): message
        }
    }

    /// The exit status CLI.md gives this failure.
    public var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        case .configuration: .configuration
        case .runtime: .failure
        }
    }
}

/// The exit statuses of `deckd` (CLI.md).
public enum ExitStatus: Int32, Sendable, Equatable {
    /// A clean stop (SIGTERM, SIGINT), or `--help`.
    case success = 0
    /// A runtime failure: another host on the socket, a port in use, the state folder in use,
    /// or a stop that gave up on edits the disk did not finish.
    case failure = 1
    /// Bad command-line options.
    case usage = 2
    /// Bad configuration that leaves nothing to serve (EX_CONFIG).
    case configuration = 78
}
