import DeckCommandLine
import DeckProtocol

/// deckctl's exit statuses (CLI.md).
public enum DeckctlExit: Int32, Sendable {
    /// Done.
    case ok = 0
    /// The host refused the request (or deckctl could not finish, e.g. write the export file).
    case refused = 1
    /// Bad arguments.
    case usage = 2
    /// No host answering on the control socket.
    case noHost = 3
    /// `check` found problems (EX_DATAERR).
    case problems = 65
}

/// Everything that ends a deckctl command early, with the sentence printed
/// on standard error and the exit status of CLI.md.
public enum DeckctlError: Error, Sendable, CustomStringConvertible {
    /// Bad arguments: exit 2.
    case usage(CommandLineError)
    /// Nothing answers on the control socket: exit 3.
    case noHost(socket: String, reason: String)
    /// The host closed the connection or stopped answering: exit 3.
    case hostGone(socket: String, reason: String)
    /// The host answered `error`: exit 1, printed as `code: message`, then
    /// one `FILE:LINE:COLUMN: message` line per problem it listed.
    case refused(code: ErrorCode, message: String, problems: [Problem])
    /// deckctl could not finish on its own side (writing a file): exit 1.
    case failed(String)

    /// The exit status for this failure.
    public var exitStatus: DeckctlExit {
        switch self {
        case .usage: .usage
        case .noHost, .hostGone: .noHost
        case .refused, .failed: .refused
        }
    }

    /// The sentence for standard error (without the `deckctl: ` in front).
    public var description: String {
        switch self {
        case .usage(let error):
            error.description
        case let .noHost(socket, reason):
            "no host is answering on \(socket) (\(reason)); start it with 'deckd' "
                + "(or 'systemctl --user start deckd'), or give its socket with --control PATH"
        case let .hostGone(socket, reason):
            "the host on \(socket) \(reason); is deckd still running?"
        case let .refused(code, message, _):
            "\(code.rawValue): \(message)"
        case .failed(let sentence):
            sentence
        }
    }

    /// The problems to print after the sentence, one per line.
    var problemLines: [String] {
        if case .refused(_, _, let problems) = self { return problems.map(\.description) }
        return []
    }
}
