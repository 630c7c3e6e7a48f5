import DeckCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// The `deckctl` command line (CLI.md): parses the arguments with the
/// declarations of ``DeckctlCommands``, runs the command, and turns every
/// failure into one sentence on standard error and the exit status.
public enum Deckctl {
    /// Runs deckctl with `arguments` (without the program name) and returns
    /// the exit status. `environment` replaces the process's environment
    /// variables (for the default control socket path).
    public static func run(_ arguments: [String], console: Console = .standard,
                           environment: [String: String]? = nil) -> Int32 {
        let parsed: ParsedCommand
        do {
            switch try DeckctlCommands.parser.parse(arguments) {
            case .help(let path):
                console.out(HelpText.render(path))
                return DeckctlExit.ok.rawValue
            case .run(let command):
                parsed = command
            }
        } catch {
            return fail(.usage(error), console: console)
        }
        let socket = parsed[DeckctlCommands.control]
            ?? ControlSocket.defaultPath(environment: environment ?? ProcessEnvironment.variables, userID: getuid())
        let invocation = Invocation(parsed: parsed, console: console, json: parsed[DeckctlCommands.json], socket: socket)
        guard let handler = handlers[parsed.command.name] else {
            return fail(.usage(parsed.error("\(parsed.command.name) has no implementation in this build")), console: console)
        }
        do {
            return try handler(invocation).rawValue
        } catch {
            return fail(error, console: console)
        }
    }

    /// One sentence (and a refused reload's problems) on standard error; the exit status.
    /// A refusal is the host's `CODE: message` as CLI.md shows it; deckctl's own
    /// errors (usage, no host) say they are deckctl's.
    static func fail(_ error: DeckctlError, console: Console) -> Int32 {
        if case .refused = error {
            console.err(error.description)
        } else {
            console.err("deckctl: \(error)")
        }
        for line in error.problemLines { console.err(line) }
        return error.exitStatus.rawValue
    }

    typealias Handler = @Sendable (Invocation) throws(DeckctlError) -> DeckctlExit

    /// What runs each command of ``DeckctlCommands/root``, by name (a test
    /// checks that every declared command has one).
    static let handlers: [String: Handler] = [
        "status": status, "show": show, "profiles": profiles, "use": use, "set": set, "clear": clear,
        "move": move, "press": press, "face": face, "lock": lock, "unlock": unlock, "reload": reload,
        "snapshots": snapshots, "restore": restore, "export": export, "pair": pair, "unpair": unpair,
        "devices": devices, "plugins": plugins, "restart": restartPlugin, "watch": watch, "check": check, "completion": completion,
    ]
}

/// One run of a command: what was parsed, where to write, and where the host is.
struct Invocation {
    let parsed: ParsedCommand
    let console: Console
    /// `--json`: print the host's reply lines as received.
    let json: Bool
    /// The control socket's path.
    let socket: String

    /// A connection to the host; with `--json`, every reply is printed as it comes.
    func connect() throws(DeckctlError) -> ControlSession {
        let session = try ControlSession(socket: socket)
        if json { session.echo = console.out }
        return session
    }

    /// Prints `lines` unless `--json` printed the reply already.
    func say(_ lines: String...) {
        say(lines)
    }

    /// Prints `lines` unless `--json` printed the reply already.
    func say(_ lines: [String]) {
        guard !json else { return }
        lines.forEach(console.out)
    }

    /// A usage error of this command.
    func usage(_ problem: String) -> DeckctlError {
        .usage(parsed.error(problem))
    }
}
