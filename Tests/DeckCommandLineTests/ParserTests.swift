@testable import DeckCommandLine
import Testing

@Suite("Parsing command lines")
struct ParserTests {
    typealias T = SampleTool

    @Test func theDeclarationIsConsistent() {
        #expect(T.root.declarationProblems == [])
    }

    @Test func optionsWithValuesInBothForms() throws {
        let spaced = try T.run(["--control", "/tmp/a.sock", "status"])
        let joined = try T.run(["--control=/tmp/a.sock", "status"])
        #expect(spaced[T.control] == "/tmp/a.sock" && joined[T.control] == "/tmp/a.sock")
        #expect(spaced.path == ["tool", "status"])
        let empty = try T.run(["--control=", "status"])
        #expect(empty[T.control] == "")
    }

    @Test func globalOptionsGoBeforeOrAfterTheCommand() throws {
        let before = try T.run(["--json", "status"])
        let after = try T.run(["status", "--json", "--control", "x"])
        #expect(before[T.json] && after[T.json] && after[T.control] == "x")
        #expect(try T.run(["status"])[T.json] == false)
    }

    @Test func typedPositionalsAndOptions() throws {
        let parsed = try T.run(["set", "2", "11", "--name", "Mail", "--run", "make", "--timeout", "2.5", "--cwd", "~/src"])
        #expect(parsed[T.page] == 2 && parsed[T.index] == 11)
        #expect(parsed[T.name] == "Mail" && parsed[T.run] == "make" && parsed[T.timeout] == 2.5 && parsed[T.cwd] == "~/src")
        #expect(parsed[T.open] == nil && parsed[T.icon] == nil)
        #expect(try parsed.required(T.page) == 2)
    }

    @Test func optionsAndPositionalsMix() throws {
        let parsed = try T.run(["set", "--name", "A", "1", "--open", "x", "2"])
        #expect(parsed[T.page] == 1 && parsed[T.index] == 2)
    }

    @Test func repeatedOptionsKeepEveryValueInOrder() throws {
        let parsed = try T.run(["set", "0", "0", "--name", "V", "--plugin", "audio", "--command", "volume",
                                "--setting", "step=2", "--setting=mute=no"])
        #expect(parsed.all(T.setting) == ["step=2", "mute=no"])
        #expect(parsed[T.setting] == "mute=no")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try T.run(["check", "--", "--help", "-x.yaml"])
        #expect(parsed.all(T.files) == ["--help", "-x.yaml"])
    }

    @Test func negativeNumbersAndADashAreValuesNotOptions() throws {
        #expect(T.failure(["show", "-1"])?.problem == "PAGE must be 0 or more, not '-1'")
        #expect(try T.run(["check", "-"]).all(T.files) == ["-"])
        #expect(T.failure(["set", "-3", "1", "--name", "x", "--open", "y"])?.problem == "PAGE must be 0 or more, not '-3'")
    }

    @Test func shortOptionsTakeValuesAttachedOrNot() throws {
        #expect(try T.run(["export", "-o", "a.yaml"])[T.output] == "a.yaml")
        #expect(try T.run(["export", "-oa.yaml"])[T.output] == "a.yaml")
        #expect(try T.run(["export", "-o=a.yaml"])[T.output] == "a.yaml")
        #expect(try T.run(["export", "--output", "-"])[T.output] == "-")
    }

    @Test func choicesAreTyped() throws {
        #expect(try T.run(["status", "--level", "warning"])[T.level] == .warning)
        #expect(T.failure(["status", "--level", "loud"])?.problem == "--level must be debug, info, warning or error, not 'loud'")
    }

    @Test func optionalAndVariadicArguments() throws {
        #expect(try T.run(["show"])[T.showPage] == nil)
        #expect(try T.run(["show", "3"])[T.showPage] == 3)
        #expect(try T.run(["check", "a", "b", "c"]).all(T.files) == ["a", "b", "c"])
    }

    @Test func flagsMayBeRepeated() throws {
        #expect(try T.run(["--json", "status", "--json"])[T.json])
    }

    @Test func hiddenOptionsAndCommandsWork() throws {
        #expect(try T.run(["-v", "secret"])[T.verbose])
        #expect(try T.run(["secret"]).path == ["tool", "secret"])
    }

    @Test func nestedSubcommands() throws {
        #expect(try T.run(["completion", "bash"]).path == ["tool", "completion", "bash"])
        #expect(T.failure(["completion"])?.problem == "completion needs a command: bash")
        #expect(T.failure(["completion", "zsh"])?.description == "unknown command 'zsh'; run 'tool completion --help' for usage")
    }

    @Test func anyValueStartingWithADashIsAttached() throws {
        #expect(try T.run(["set", "0", "0", "--name=-x-", "--run=-v"])[T.run] == "-v")
    }
}

@Suite("Help requests")
struct HelpRequestTests {
    typealias T = SampleTool

    /// The help path asked for; nil when the line runs a command or is wrong.
    static func helpPath(_ arguments: [String]) -> [String]? {
        if case .help(let path)? = try? T.parser.parse(arguments) { return path.map(\.name) }
        return nil
    }

    @Test(arguments: [
        (["--help"], ["tool"]),
        (["-h"], ["tool"]),
        ([], nil),
        (["help"], ["tool"]),
        (["help", "set"], ["tool", "set"]),
        (["set", "--help"], ["tool", "set"]),
        (["set", "-h", "--nonsense", "x"], ["tool", "set"]),
        (["--control", "status", "set", "--help"], ["tool", "set"]),
        (["--control=x", "status", "--help"], ["tool", "status"]),
        (["completion", "bash", "--help"], ["tool", "completion", "bash"]),
        (["check", "--", "--help"], nil),
        (["set", "0", "0", "--name", "--help"], nil),
    ] as [([String], [String]?)])
    func helpIsFoundEvenOnAWrongLine(_ arguments: [String], _ expected: [String]?) {
        #expect(Self.helpPath(arguments) == expected)
    }

    @Test func helpForAnUnknownCommandSuggestsOne() {
        #expect(T.failure(["help", "stauts"]) == CommandLineError("unknown command 'stauts'", suggestion: "status", command: ["tool"]))
    }
}

@Suite("A tool where the last option wins")
struct LastOptionWinsTests {
    static let keep = Option<Int>("keep", value: "N", help: "how many")
    static let parser: CommandLineParser = {
        var root = CommandSpec("daemon", summary: "a daemon", options: [keep])
        root.repeatedOptions = .lastWins
        return CommandLineParser(root)
    }()

    @Test func theLaterValueReplacesTheEarlierOne() throws {
        guard case .run(let parsed) = try Self.parser.parse(["--keep", "1", "--keep=2"]) else {
            Issue.record("no command")
            return
        }
        #expect(parsed[Self.keep] == 2 && parsed.all(Self.keep) == [2])
        #expect(throws: CommandLineError.self) { try Self.parser.parse(["--keep", "1", "--keep", "x"]) }
    }

    static let port = Option<Int>("port", value: "N", help: "where")
    static let quiet = Flag("quiet", help: "no port")
    static let grouped: CommandLineParser = {
        var root = CommandSpec("daemon", summary: "a daemon", options: [port, quiet],
                               groups: [OptionGroup(["port", "quiet"], meaning: "a port or none")])
        root.repeatedOptions = .lastWins
        return CommandLineParser(root)
    }()

    @Test func theLaterOptionOfAGroupReplacesTheEarlierOne() throws {
        guard case .run(let quiet) = try Self.grouped.parse(["--port", "1", "--quiet"]),
              case .run(let port) = try Self.grouped.parse(["--quiet", "--port", "2"]) else {
            Issue.record("no command")
            return
        }
        #expect(quiet[Self.quiet] && quiet[Self.port] == nil)
        #expect(!port[Self.quiet] && port[Self.port] == 2)
    }

    @Test func whereRepeatsAreRefusedAGroupStillAllowsOnlyOne() {
        var root = CommandSpec("tool", summary: "a tool", options: [Self.port, Self.quiet],
                               groups: [OptionGroup(["port", "quiet"], meaning: "a port or none")])
        root.repeatedOptions = .refused
        #expect(throws: CommandLineError.self) { try CommandLineParser(root).parse(["--quiet", "--port", "2"]) }
    }
}
