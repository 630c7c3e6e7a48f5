import DeckCommandLine
import Glibc

/// `deckd`'s `main`: parses the command line, blocks the signals the host
/// reads, runs the host, and returns the exit status.
public enum Deckd {
    /// Runs `deckd` with this process's command line and environment.
    public static func main() -> Int32 {
        main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.variables)
    }

    /// Runs `deckd` with `arguments` (without the program name).
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        blockHostSignals()
        switch Result(catching: { () throws(HostError) in try HostArguments.parse(arguments, environment: environment) }) {
        case .success(.help(let text)):
            print(text)
            return ExitStatus.success.rawValue
        case .success(.run(let configuration)):
            return Host.run(configuration, environment: environment).rawValue
        case .failure(let error):
            // The sentence already ends by pointing at `deckd --help` or at the option meant.
            let line = "deckd: \(error)\n"
            _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            return error.exitStatus.rawValue
        }
    }
}
