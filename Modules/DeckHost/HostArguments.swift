import DeckCommandLine
import DeckTransport
import DeckWeb

/// The command line of `deckd` (CLI.md), declared once with DeckCommandLine:
/// the parser, `deckd --help` and the usage errors all come from
/// ``HostArguments/command``, as deckctl's do from its declarations.
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
    /// - Throws: ``HostError/usage(_:)`` with one sentence for a bad option
    ///   that ends by pointing at `deckd --help` (or at the option meant).
    public static func parse(_ arguments: [String], environment: [String: String]) throws(HostError) -> Parsed {
        let parsed: ParsedCommand
        do {
            switch try CommandLineParser(command).parse(arguments) {
            case .help:
                return .help(helpText)
            case .run(let command):
                parsed = command
            }
        } catch {
            throw .usage(error.description)
        }
        var configuration = HostConfiguration.defaults(environment: environment)
        if let folder = parsed[layouts] {
            configuration.layouts = folder
            configuration.createsLayouts = false
        }
        configuration.state = parsed[state] ?? configuration.state
        configuration.profile = parsed[profile] ?? configuration.profile
        configuration.listen = parsed[noTCP] ? nil : parsed[listen] ?? configuration.listen
        configuration.control = parsed[control] ?? configuration.control
        // Given folders replace the default one; given again, they add up.
        let pluginFolders = parsed.all(plugins)
        configuration.plugins = pluginFolders.isEmpty ? configuration.plugins : pluginFolders
        configuration.opener = parsed[opener] ?? configuration.opener
        configuration.lockProbe = parsed[lockProbe] ?? configuration.lockProbe
        configuration.keep = parsed[keep] ?? configuration.keep
        configuration.maxMessage = parsed[maxMessage] ?? configuration.maxMessage
        configuration.maxConnections = parsed[maxConnections] ?? configuration.maxConnections
        configuration.requireToken = parsed[requireToken]
        configuration.logLevel = parsed[logLevel] ?? configuration.logLevel
        configuration.helloTimeout = parsed[helloTimeout].map { .milliseconds($0) } ?? configuration.helloTimeout
        configuration.lockProbeInterval = parsed[lockProbeInterval].map { .milliseconds($0) } ?? configuration.lockProbeInterval
        configuration.gatherWindow = parsed[gatherWindow].map { .milliseconds($0) } ?? configuration.gatherWindow
        if let milliseconds = parsed[pluginRestartDelay] {
            let delay = Duration.milliseconds(milliseconds)
            configuration.pluginPolicy.firstRestartDelay = delay
            configuration.pluginPolicy.maximumRestartDelay = max(delay, .milliseconds(1)) * 60
        }
        configuration.pluginPolicy.readyTimeout = parsed[pluginReadyTimeout].map { .milliseconds($0) }
            ?? configuration.pluginPolicy.readyTimeout
        configuration.maxRunningActions = parsed[maxRunningActions] ?? configuration.maxRunningActions
        configuration.maxQueuedActions = parsed[maxQueuedActions] ?? configuration.maxQueuedActions
        configuration.web = parsed[noWeb] ? nil : parsed[web] ?? configuration.web
        configuration.journal = configuration.journal && !parsed[noJournal]
        configuration.webOrigins = parsed.all(webOrigin)
        configuration.webURL = parsed[webURL]
        configuration.webRoot = parsed[webRoot] ?? WebConfiguration.installedRoot()
        configuration.pairingLifetime = parsed[pairingLifetime].map { .milliseconds($0) } ?? configuration.pairingLifetime
        configuration.tls = tlsSetting(parsed)
        return .run(configuration)
    }

    /// `--tls auto`, or `--tls-cert` with `--tls-key` (the parser has checked that they come together).
    private static func tlsSetting(_ parsed: ParsedCommand) -> TLSSetting? {
        if parsed[tls] != nil { return .automatic }
        guard let certificate = parsed[tlsCertificate], let key = parsed[tlsKey] else { return nil }
        return .files(certificate: certificate, key: key)
    }

    /// `deckd --help`.
    public static var helpText: String { HelpText.render([command]) }

    // MARK: The declaration

    static let layouts = Option<String>("layouts", value: "DIR",
                                        help: "the folder of profile YAML files; one given here must exist (default $XDG_CONFIG_HOME/deckd/layouts, created when missing)",
                                        completion: .directory, validate: notEmpty)
    static let state = Option<String>("state", value: "DIR",
                                      help: "snapshots, device tokens, last profile (default $XDG_STATE_HOME/deckd)",
                                      completion: .directory, validate: notEmpty)
    static let profile = Option<String>("profile", value: "NAME",
                                        help: "profile to serve (default: the last live one, else default, else the first)",
                                        validate: notEmpty)
    static let listen = Option<String>("listen", value: "HOST:PORT",
                                       help: "where devices connect (default 127.0.0.1:7531; 0.0.0.0:7531 for the network)",
                                       validate: endpoint)
    static let noTCP = Flag("no-tcp", help: "serve the control socket only")
    static let control = Option<String>("control", value: "PATH",
                                        help: "control socket for deckctl (default $XDG_RUNTIME_DIR/deckd/control.sock, "
                                            + "else /tmp/deckd-UID/control.sock)",
                                        completion: .file, validate: notEmpty)
    static let plugins = Option<String>("plugins", value: "DIR",
                                        help: "a plugins folder (default $XDG_DATA_HOME/deckd/plugins, then the example plugins "
                                            + "make install put in PREFIX/share/deckd/plugins beside PREFIX/bin/deckd); "
                                            + "several are searched in order",
                                        repeatable: true, completion: .directory, validate: notEmpty)
    static let opener = Option<String>("opener", value: "COMMAND",
                                       help: "opens `open` buttons (default xdg-open); gets the target as its argument",
                                       validate: notEmpty)
    static let lockProbe = Option<String>("lock-probe", value: "COMMAND",
                                          help: "run every 2 s; printing true/1/locked/yes locks the host", validate: notEmpty)
    static let keep = Option<Int>("keep", value: "N", help: "snapshot generations kept per profile (default 100)",
                                  validate: atLeast(1))
    static let maxMessage = Option<Int>("max-message", value: "BYTES", help: "longest line a client may send (default 1048576)",
                                        validate: atLeast(64))
    static let maxConnections = Option<Int>("max-connections", value: "N", help: "connections per listener (default 256)",
                                            validate: atLeast(1))
    static let requireToken = Flag("require-token",
                                   help: "every TCP device needs a token, loopback too (for tunnels and proxies)")
    static let tls = Option<String>("tls", value: "auto",
                                    help: "TLS on the device port and the web listener with a self-signed certificate "
                                        + "kept in STATE/tls (see deckctl pair for its fingerprint)",
                                    validate: { $0 == "auto" ? nil : "must be auto (or give --tls-cert and --tls-key)" })
    static let tlsCertificate = Option<String>("tls-cert", value: "FILE",
                                               help: "TLS with this PEM certificate (chain), re-read on SIGHUP",
                                               completion: .file, needs: ["tls-key"], validate: notEmpty)
    static let tlsKey = Option<String>("tls-key", value: "FILE", help: "the private key (PEM) of --tls-cert",
                                       completion: .file, onlyWith: "tls-cert", validate: notEmpty)
    static let logLevel = Option<LogLevel>("log-level", value: "debug|info|warning|error",
                                           help: "the least important lines logged (default info)")
    static let web = Option<String>("web", value: "HOST:PORT",
                                    help: "the web deck and its WebSocket (default 127.0.0.1:7532; 0.0.0.0:7532 for phones on the network)",
                                    validate: endpoint)
    static let noWeb = Flag("no-web", help: "serve no web deck")
    /// Hidden: CLI.md's synopsis is the contract; this is a fallback and a
    /// test switch, documented in docs/snapshots.md.
    static let noJournal = Flag("no-journal", help: "write each snapshot generation as a file of its own, not to the journal",
                                hidden: true)
    static let webOrigin = Option<String>("web-origin", value: "ORIGIN",
                                          help: "another origin allowed to open the WebSocket (a reverse proxy's https://NAME); repeatable",
                                          repeatable: true, validate: origin)
    static let webURL = Option<String>("web-url", value: "URL",
                                       help: "the address pairing links use (default: the web listener's; on 0.0.0.0 or [::], this machine's network address and the web port)",
                                       validate: url)
    static let webRoot = Option<String>("web-root", value: "DIR",
                                        help: "the web app's files (default PREFIX/share/deckd/web beside deckd)",
                                        completion: .directory, validate: notEmpty)
    // For tests: pairing codes that expire at once.
    static let pairingLifetime = Option<Int>("pairing-lifetime", value: "MS", help: "how long a pairing code is good for",
                                             hidden: true, validate: atLeast(1))
    // For tests: a fast hello timeout and lock probe.
    static let helloTimeout = Option<Int>("hello-timeout", value: "MS", help: "time to hello, in milliseconds",
                                          hidden: true, validate: atLeast(1))
    static let lockProbeInterval = Option<Int>("lock-probe-interval", value: "MS", help: "lock probe period, in milliseconds",
                                               hidden: true, validate: atLeast(1))
    // For tests: a gather window long enough to see who a batch waits for.
    static let gatherWindow = Option<Int>("gather-window", value: "MS", help: "how long a batch's devices are waited for",
                                          hidden: true, validate: atLeast(0))
    // For tests: plugin supervision timings and the action queue's bounds.
    static let pluginRestartDelay = Option<Int>("plugin-restart-delay", value: "MS", help: "first plugin restart delay",
                                                hidden: true, validate: atLeast(1))
    static let pluginReadyTimeout = Option<Int>("plugin-ready-timeout", value: "MS", help: "time a plugin has to say ready",
                                                hidden: true, validate: atLeast(1))
    static let maxRunningActions = Option<Int>("max-running-actions", value: "N", help: "run and open actions at once",
                                               hidden: true, validate: atLeast(1))
    static let maxQueuedActions = Option<Int>("max-queued-actions", value: "N", help: "actions waiting for a place",
                                              hidden: true, validate: atLeast(0))

    /// deckd's one declaration. A later option wins over an earlier one
    /// (`deckd $DEFAULTS --listen 0.0.0.0:7531`), as deckd always did, and
    /// the later of `--listen` and `--no-tcp` wins the same way
    /// (`deckd $DEFAULTS --no-tcp`): CLI.md shows them as alternatives and
    /// says nothing about both, so they follow the rule of every other option.
    static let command: CommandSpec = {
        var command = CommandSpec(
            "deckd", summary: "the deck host daemon",
            discussion: "deckd, the deck host daemon: serves your button layouts to phones and tablets.",
            options: [layouts, state, profile, listen, noTCP, control, plugins, opener, lockProbe, keep, maxMessage,
                      maxConnections, requireToken, web, noWeb, noJournal, webOrigin, webURL, webRoot, tls, tlsCertificate, tlsKey,
                      logLevel, helloTimeout, lockProbeInterval, gatherWindow, pluginRestartDelay, pluginReadyTimeout,
                      maxRunningActions, maxQueuedActions, pairingLifetime],
            groups: [OptionGroup(["listen", "no-tcp"], meaning: "devices connect over TCP, or not at all"),
                     OptionGroup(["web", "no-web"], meaning: "browsers connect, or not at all"),
                     OptionGroup(["tls", "tls-cert"], meaning: "a self-signed certificate, or your own")],
            notes: [("options given twice", """
                        The later value wins, and so does the later of --listen and --no-tcp: a \
                        wrapper can append to a default command line.
                        """),
                    ("running", """
                        Prints "deckd ready" and where it listens on stderr once it serves. SIGTERM or SIGINT stops it \
                        cleanly, SIGHUP re-reads the profile files, the plugins folders and the --tls-cert/--tls-key files.
                        """),
                    ("exit status", """
                        0   clean stop
                        1   runtime failure
                        2   bad options
                        78  bad configuration with nothing to serve
                        """)])
        command.repeatedOptions = .lastWins
        return command
    }()

    private static func notEmpty(_ text: String) -> String? {
        text.isEmpty ? "must not be empty" : nil
    }

    private static func atLeast(_ minimum: Int) -> @Sendable (Int) -> String? {
        { $0 >= minimum ? nil : "must be a whole number of at least \(minimum)" }
    }

    private static func origin(_ text: String) -> String? {
        (text.hasPrefix("http://") || text.hasPrefix("https://")) && !text.dropFirst(8).contains("/")
            ? nil : "must be an origin such as https://deck.example.org (scheme and host, no path)"
    }

    private static func url(_ text: String) -> String? {
        text.hasPrefix("http://") || text.hasPrefix("https://") ? nil : "must be a URL such as https://deck.example.org"
    }

    private static func endpoint(_ text: String) -> String? {
        do {
            _ = try Endpoint(tcp: text)
            return nil
        } catch {
            guard case let .invalidAddress(_, reason) = error, !reason.hasPrefix("expected HOST:PORT") else {
                return "must be HOST:PORT, as in 127.0.0.1:7531"
            }
            return "must be HOST:PORT (\(reason))"
        }
    }
}

extension LogLevel: ArgumentChoice {}
