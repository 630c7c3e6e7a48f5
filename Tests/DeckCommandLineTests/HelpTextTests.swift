@testable import DeckCommandLine
import Testing

@Suite("Help text from the declarations")
struct HelpTextTests {
    typealias T = SampleTool

    @Test func rootHelpListsCommandsOptionsAndNotes() {
        #expect(HelpText.render([T.root]) == """
            usage: tool [--control PATH] [--json] COMMAND [ARGS]

            A sample tool.

            commands:
              status      says how things are
              show        draws the layout
              set         puts a button in a slot
              press       runs a button
              check       checks files
              export      writes YAML
              completion  prints a completion script

            options:
                  --control PATH  the control socket
                  --json          print JSON
              -h, --help          show this help; 'tool COMMAND --help' (or 'tool help
                                  COMMAND') for one command

            exit status:
              0 done, 2 usage
            """)
    }

    @Test func commandHelpHasUsageArgumentsOptionsGlobalsAndExamples() {
        #expect(HelpText.render([T.root, T.set]) == """
            usage: tool set PAGE INDEX --name N [--icon I] (--run CMD [--cwd D]
                            [--timeout S] | --open X | --plugin ID --command C
                            [--setting K=V]…)

            Puts a button in a slot.

            arguments:
              PAGE   the page, 0-based
              INDEX  the slot, 0-based

            options:
                  --name N       the label
                  --icon I       an icon
                  --run CMD      a shell command
                  --cwd D        where it runs
                  --timeout S    seconds
                  --open X       a URL
                  --plugin ID    a plugin
                  --command C    its command
                  --setting K=V  a setting (may be given more than once)
              -h, --help         show this help

            global options:
              --control PATH  the control socket
              --json          print JSON

            examples:
              tool set 0 1 --name Mail --open mailto:a@b.c
                  a button that writes mail
            """)
    }

    @Test(arguments: [
        ([T.root, T.press], "tool press PAGE INDEX [--down | --up]"),
        ([T.root, T.export], "tool export [--profile P] [-o FILE]"),
        ([T.root, T.check], "tool check FILE…"),
        ([T.root, T.show], "tool show [PAGE] [--columns N]"),
        ([T.root, T.completion], "tool completion"),
        ([T.root, T.completion, T.bash], "tool completion bash"),
    ] as [([CommandSpec], String)])
    func synopsisLines(_ path: [CommandSpec], _ expected: String) {
        #expect(Synopsis.line(of: path) == expected)
    }

    @Test func hiddenThingsStayOutOfHelp() {
        let root = HelpText.render([T.root])
        #expect(!root.contains("secret") && !root.contains("verbose"))
    }

    @Test func everyLineFitsTheWidth() {
        for path in [[T.root], [T.root, T.set], [T.root, T.export], [T.root, T.check]] {
            for width in [60, 80] {
                for line in HelpText.render(path, width: width).split(separator: "\n") {
                    #expect(line.count <= width, "\(line)")
                }
            }
        }
    }

    @Test func wrappingKeepsLongWordsWholeAndIndents() {
        #expect(TextWrap.wrap("aaa bbb ccc", width: 7, indent: 0) == "aaa bbb\nccc")
        #expect(TextWrap.wrap("averyveryverylongword x", width: 8, indent: 2) == "  averyveryverylongword\n  x")
        #expect(TextWrap.paragraphs("one\ntwo\n\nthree", width: 80) == "one two\n\nthree")
    }
}

@Suite("A tool without subcommands")
struct SingleCommandToolTests {
    static let listen = Option<String>("listen", value: "HOST:PORT", help: "where to listen")
    static let noTCP = Flag("no-tcp", help: "no TCP")
    static let keep = Option<Int>("keep", value: "N", help: "how many", validate: { $0 >= 1 ? nil : "must be 1 or more" })
    static let root = CommandSpec("daemon", summary: "a daemon", options: [listen, noTCP, keep],
                                  groups: [OptionGroup(["listen", "no-tcp"], meaning: "where devices connect")])

    @Test func synopsisKeepsGroupsTogether() {
        #expect(Synopsis.line(of: [Self.root]) == "daemon [--listen HOST:PORT | --no-tcp] [--keep N]")
    }

    @Test func parsesOptionsAndRefusesArguments() throws {
        guard case .run(let parsed) = try CommandLineParser(Self.root).parse(["--keep=3", "--no-tcp"]) else {
            Issue.record("no command")
            return
        }
        #expect(parsed[Self.keep] == 3 && parsed[Self.noTCP] && parsed[Self.listen] == nil && parsed.path == ["daemon"])
        #expect(throws: CommandLineError("daemon takes no arguments, so 'x' is one too many", command: ["daemon"])) {
            try CommandLineParser(Self.root).parse(["x"])
        }
        #expect(throws: CommandLineError("give only one of --listen and --no-tcp (where devices connect)", command: ["daemon"])) {
            try CommandLineParser(Self.root).parse(["--listen", "a:1", "--no-tcp"])
        }
    }

    @Test func helpHasNoCommandsSection() {
        let help = HelpText.render([Self.root])
        #expect(help.hasPrefix("usage: daemon [--listen HOST:PORT | --no-tcp] [--keep N]\n\nA daemon.\n\noptions:\n"))
        #expect(!help.contains("commands:") && !help.contains("global options:"))
        #expect(help.hasSuffix("\n  -h, --help              show this help"))
    }
}
