import DeckTransport

/// The command line of `deckd` (CLI.md), parsed in one place.
///
/// Kept apart from the rest of the host so that a shared option parser can
/// replace it later without touching anything else.
public enum HostArguments {
    /// What a command line asks for.
    public enum Parsed: Sendable, Equatable {
        /// Run the host with this configuration.
        case run(HostConfiguration)
        /// Print this help text and exit 0.
        case help(String)
    }

    /// Parses `arguments` (without the program name). Options take their value
    /// as the next argument or after `=` (`--keep 20`, `--keep=20`).
    ///
    /// - Throws: ``HostError/usage(_:)`` with one sentence for a bad option.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(HostError) -> Parsed {
        var configuration = HostConfiguration.defaults(environment: environment)
        var pluginsGiven = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value(_ what: String) throws(HostError) -> String {
                if let inline { return inline }
                guard index < arguments.count else { throw .usage("\(name) needs \(what)") }
                index += 1
                return arguments[index - 1]
            }
            func flag() throws(HostError) {
                if inline != nil { throw .usage("\(name) takes no value") }
            }
            switch name {
            case "-h", "--help":
                return .help(helpText)
            case "--layouts": configuration.layouts = try nonEmpty(try value("a folder"), name)
            case "--state": configuration.state = try nonEmpty(try value("a folder"), name)
            case "--profile": configuration.profile = try nonEmpty(try value("a profile name"), name)
            case "--listen":
                let address = try value("HOST:PORT, such as 127.0.0.1:7531")
                do {
                    _ = try Endpoint(tcp: address)
                } catch {
                    throw .usage("--listen: \(error)")
                }
                configuration.listen = address
            case "--no-tcp":
                try flag()
                configuration.listen = nil
            case "--control": configuration.control = try nonEmpty(try value("a socket path"), name)
            case "--plugins":
                // Given folders replace the default; given again, they add up.
                let folder = try nonEmpty(try value("a folder"), name)
                configuration.plugins = (pluginsGiven ? configuration.plugins : []) + [folder]
                pluginsGiven = true
            case "--opener": configuration.opener = try nonEmpty(try value("a command"), name)
            case "--lock-probe": configuration.lockProbe = try nonEmpty(try value("a shell command"), name)
            case "--keep": configuration.keep = try number(try value("a number"), name, atLeast: 1)
            case "--max-message": configuration.maxMessage = try number(try value("a number of bytes"), name, atLeast: 64)
            case "--max-connections": configuration.maxConnections = try number(try value("a number"), name, atLeast: 1)
            case "--require-token":
                try flag()
                configuration.requireToken = true
            case "--log-level":
                let text = try value("one of debug, info, warning, error")
                guard let level = LogLevel(rawValue: text) else {
                    throw .usage("--log-level must be one of debug, info, warning, error, not '\(text)'")
                }
                configuration.logLevel = level
            case "--hello-timeout":
                configuration.helloTimeout = .milliseconds(try number(try value("milliseconds"), name, atLeast: 1))
            case "--lock-probe-interval":
                configuration.lockProbeInterval = .milliseconds(try number(try value("milliseconds"), name, atLeast: 1))
            case "--plugin-restart-delay":
                let delay = Duration.milliseconds(try number(try value("milliseconds"), name, atLeast: 1))
                configuration.pluginPolicy.firstRestartDelay = delay
                configuration.pluginPolicy.maximumRestartDelay = max(delay, .milliseconds(1)) * 60
            case "--plugin-ready-timeout":
                configuration.pluginPolicy.readyTimeout = .milliseconds(try number(try value("milliseconds"), name, atLeast: 1))
            case "--max-running-actions":
                configuration.maxRunningActions = try number(try value("a number"), name, atLeast: 1)
            case "--max-queued-actions":
                configuration.maxQueuedActions = try number(try value("a number"), name, atLeast: 0)
            default:
                if argument.hasPrefix("-") { throw .usage("unknown option '\(name)'") }
                throw .usage("unexpected argument '\(argument)' (deckd takes options only)")
            }
        }
        if arguments.contains("--no-tcp"), arguments.contains(where: { $0 == "--listen" || $0.hasPrefix("--listen=") }) {
            throw .usage("--listen and --no-tcp cannot be used together; choose one")
        }
        return .run(configuration)
    }

    private static func nonEmpty(_ text: String, _ option: String) throws(HostError) -> String {
        if text.isEmpty { throw .usage("\(option) needs a value that is not empty") }
        return text
    }

    private static func number(_ text: String, _ option: String, atLeast minimum: Int) throws(HostError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw .usage("\(option) needs a whole number of at least \(minimum), not '\(text)'")
        }
        return value
    }

    /// `deckd --help`.
    public static let helpText = """
        deckd — the deck host daemon: serves your button layouts to phones and tablets.

        usage: deckd [--layouts DIR] [--state DIR] [--profile NAME]
                     [--listen HOST:PORT | --no-tcp] [--control PATH]
                     [--plugins DIR] [--opener COMMAND] [--lock-probe COMMAND] [--keep N]
                     [--max-message BYTES] [--max-connections N] [--require-token]
                     [--log-level debug|info|warning|error]

          --layouts DIR        profile YAML files (default $XDG_CONFIG_HOME/deckd/layouts)
          --state DIR          snapshots, device tokens, last profile (default $XDG_STATE_HOME/deckd)
          --profile NAME       profile to serve (default: the last live one, else default, else the first)
          --listen HOST:PORT   where devices connect (default 127.0.0.1:7531; 0.0.0.0:7531 for the network)
          --no-tcp             serve the control socket only
          --control PATH       control socket for deckctl (default $XDG_RUNTIME_DIR/deckd/control.sock,
                               else /tmp/deckd-UID/control.sock)
          --plugins DIR        a plugins folder (default $XDG_DATA_HOME/deckd/plugins); give it again
                               to serve several folders
          --opener COMMAND     opens `open` buttons (default xdg-open); gets the target as its argument
          --lock-probe COMMAND run every 2 s; printing true/1/locked/yes locks the host
          --keep N             snapshot generations kept per profile (default 100)
          --max-message BYTES  longest line a client may send (default 1048576)
          --max-connections N  connections per listener (default 256)
          --require-token      every TCP device needs a token, loopback too (for tunnels and proxies)
          --log-level LEVEL    debug, info (default), warning or error
          -h, --help           this help

        Prints "deckd ready" and where it listens on stderr once it serves. SIGTERM or
        SIGINT stops it cleanly, SIGHUP re-reads the profile files. Exit status: 0 clean
        stop, 1 runtime failure, 2 bad options, 78 bad configuration with nothing to serve.
        """
}
