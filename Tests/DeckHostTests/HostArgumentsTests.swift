import DeckCommandLine
@testable import DeckHost
import Testing

/// deckd's command line on DeckCommandLine: the options of CLI.md, its help
/// and its usage errors (exit 2 is `HostError.usage`).
@Suite("deckd's command line")
struct HostArgumentsTests {
    static func configuration(_ arguments: [String]) throws -> HostConfiguration {
        guard case .run(let configuration) = try HostArguments.parse(arguments, environment: ["HOME": "/home/kim"]) else {
            throw HostError.usage("expected a configuration")
        }
        return configuration
    }

    static func mistake(_ arguments: [String]) -> String? {
        do {
            _ = try HostArguments.parse(arguments, environment: [:])
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theDeclarationIsConsistentAndTheSynopsisIsCLIMds() {
        #expect(HostArguments.command.declarationProblems == [])
        #expect(Synopsis.line(of: [HostArguments.command]) == "deckd [--layouts DIR] [--state DIR] [--profile NAME] "
                + "[--listen HOST:PORT | --no-tcp] [--control PATH] [--plugins DIR]… [--opener COMMAND] [--lock-probe COMMAND] "
                + "[--keep N] [--max-message BYTES] [--max-connections N] [--require-token] [--web HOST:PORT | --no-web] "
                + "[--web-origin ORIGIN]… [--web-url URL] [--web-root DIR] [--tls auto | --tls-cert FILE --tls-key FILE] "
                + "[--log-level debug|info|warning|error]")
    }

    @Test func everyOptionInBothForms() throws {
        let all = try Self.configuration([
            "--layouts", "/l", "--state=/s", "--profile", "desk", "--listen", "0.0.0.0:7531", "--control", "/c.sock",
            "--plugins=/p", "--opener", "open-it", "--lock-probe", "probe", "--keep", "5", "--max-message=128",
            "--max-connections", "3", "--require-token", "--log-level", "warning", "--hello-timeout", "250",
            "--lock-probe-interval=40",
        ])
        #expect(all.layouts == "/l" && all.state == "/s" && all.profile == "desk" && all.listen == "0.0.0.0:7531")
        #expect(all.control == "/c.sock" && all.plugins == ["/p"] && all.opener == "open-it" && all.lockProbe == "probe")
        #expect(all.keep == 5 && all.maxMessage == 128 && all.maxConnections == 3 && all.requireToken && all.logLevel == .warning)
        #expect(all.helloTimeout == .milliseconds(250) && all.lockProbeInterval == .milliseconds(40))
        #expect(try Self.configuration(["--no-tcp"]).listen == nil)
        // Plugin folders add up and replace the default one.
        #expect(try Self.configuration(["--plugins", "/a", "--plugins=/b"]).plugins == ["/a", "/b"])
        #expect(try Self.configuration([]).plugins == ["/home/kim/.local/share/deckd/plugins"])
        let tuned = try Self.configuration(["--plugin-restart-delay", "50", "--plugin-ready-timeout=70",
                                            "--max-running-actions", "2", "--max-queued-actions", "0"])
        #expect(tuned.pluginPolicy.firstRestartDelay == .milliseconds(50) && tuned.pluginPolicy.maximumRestartDelay == .milliseconds(3000))
        #expect(tuned.pluginPolicy.readyTimeout == .milliseconds(70) && tuned.maxRunningActions == 2 && tuned.maxQueuedActions == 0)
        #expect(try Self.configuration([]) == HostConfiguration.defaults(environment: ["HOME": "/home/kim"]))
        // A later option wins, so a wrapper can append to a default command line.
        #expect(try Self.configuration(["--keep", "1", "--control", "/a", "--keep=2", "--control", "/b"]).keep == 2)
        #expect(try Self.configuration(["--control", "/a", "--control", "/b"]).control == "/b")
    }

    @Test func theLaterOfListenAndNoTCPWins() throws {
        #expect(try Self.configuration(["--listen", "0.0.0.0:7531", "--no-tcp"]).listen == nil)
        #expect(try Self.configuration(["--no-tcp", "--listen", "0.0.0.0:7531"]).listen == "0.0.0.0:7531")
        #expect(try Self.configuration(["--no-tcp", "--listen=127.0.0.1:1", "--no-tcp"]).listen == nil)
        #expect(try Self.configuration(["--listen", "127.0.0.1:1", "--no-tcp", "--listen", "127.0.0.1:2"]).listen == "127.0.0.1:2")
        // A bad --listen is still refused even when --no-tcp comes after it.
        #expect(Self.mistake(["--listen", "nowhere", "--no-tcp"])?.hasPrefix("--listen must be HOST:PORT") == true)
    }

    @Test(arguments: [
        (["--frob"], "unknown option '--frob'; run 'deckd --help' for usage"),
        (["--lisen", "1.2.3.4:5"], "unknown option '--lisen'; did you mean '--listen'?"),
        (["extra"], "deckd takes no arguments, so 'extra' is one too many; run 'deckd --help' for usage"),
        (["--layouts"], "--layouts needs a value: --layouts DIR; run 'deckd --help' for usage"),
        (["--layouts="], "--layouts must not be empty; run 'deckd --help' for usage"),
        (["--keep", "0"], "--keep must be a whole number of at least 1, not '0'; run 'deckd --help' for usage"),
        (["--plugins", ""], "--plugins must not be empty; run 'deckd --help' for usage"),
        (["--max-running-actions", "0"], "--max-running-actions must be a whole number of at least 1, not '0'; run 'deckd --help' for usage"),
        (["--max-message", "10"], "--max-message must be a whole number of at least 64, not '10'; run 'deckd --help' for usage"),
        (["--listen", "nope"], "--listen must be HOST:PORT, as in 127.0.0.1:7531, not 'nope'; run 'deckd --help' for usage"),
        (["--listen", "::1:7531"],
         "--listen must be HOST:PORT (put an IPv6 address in brackets, as in [::1]:7531), not '::1:7531'; run 'deckd --help' for usage"),
        (["--log-level", "loud"], "--log-level must be debug, info, warning or error, not 'loud'; run 'deckd --help' for usage"),
        (["--require-token=yes"], "--require-token takes no value; run 'deckd --help' for usage"),
    ] as [([String], String)])
    func mistakesAreOneSentence(_ arguments: [String], _ sentence: String) {
        #expect(Self.mistake(arguments) == sentence)
    }

    @Test func helpListsEveryVisibleOptionAndTheExitStatuses() throws {
        for arguments in [["--help"], ["-h"], ["--keep", "0", "--help"]] {
            guard case .help(let text) = try HostArguments.parse(arguments, environment: [:]) else {
                Issue.record("no help for \(arguments)")
                continue
            }
            #expect(text.hasPrefix("usage: deckd [--layouts DIR]"))
            for option in ["--layouts DIR", "--no-tcp", "--lock-probe COMMAND", "--require-token", "--log-level debug|info|warning|error"] {
                #expect(text.contains(option), "\(option)")
            }
            for hidden in ["--hello-timeout", "--lock-probe-interval", "--plugin-restart-delay", "--plugin-ready-timeout",
                           "--max-running-actions", "--max-queued-actions"] {
                #expect(!text.contains(hidden), "\(hidden)")
            }
            #expect(text.contains("  78  bad configuration with nothing to serve"))
            for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        }
    }
}
