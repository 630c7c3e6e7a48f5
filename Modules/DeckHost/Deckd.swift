import Glibc

/// `deckd`'s `main`: parses the command line, blocks the signals the host
/// reads, runs the host, and returns the exit status.
public enum Deckd {
    /// Runs `deckd` with this process's command line and environment.
    public static func main() -> Int32 {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
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
            let line = "deckd: \(error); run 'deckd --help' for usage\n"
            _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            return error.exitStatus.rawValue
        }
    }
}
