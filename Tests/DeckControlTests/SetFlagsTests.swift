import DeckCommandLine
@testable import DeckControl
import DeckModel
import Testing

@Suite("set: every action kind from flags")
struct SetFlagsTests {
    static func button(_ flags: [String]) throws -> DeckButton {
        guard case .run(let parsed) = try DeckctlCommands.parser.parse(["set", "0", "1"] + flags) else {
            throw CommandLineError("help", command: [])
        }
        return try SetCommand.button(from: parsed)
    }

    static func failure(_ flags: [String]) -> String? {
        do {
            _ = try button(flags)
            return nil
        } catch {
            return (error as? CommandLineError)?.problem
        }
    }

    @Test func run() throws {
        #expect(try Self.button(["--name", "Build", "--icon", "🔨", "--run", "make", "--cwd", "~/src", "--timeout", "600"])
                == DeckButton(name: "Build", icon: "🔨", action: .run(command: "make", cwd: "~/src", timeout: 600)))
        #expect(try Self.button(["--name", "Up", "--run", "uptime"]) == DeckButton(name: "Up", action: .run(command: "uptime")))
        #expect(try Self.button(["--name", "T", "--run", "x", "--timeout", "2.5"]).action == .run(command: "x", timeout: 2.5))
    }

    @Test func openPageAndProfile() throws {
        #expect(try Self.button(["--name", "Mail", "--open", "mailto:a@b.c"]).action == .open("mailto:a@b.c"))
        #expect(try Self.button(["--name", "N", "--page", "next"]).action == .page(.next))
        #expect(try Self.button(["--name", "P", "--page", "previous"]).action == .page(.previous))
        #expect(try Self.button(["--name", "2", "--page", "2"]).action == .page(.number(2)))
        #expect(try Self.button(["--name", "S", "--profile", "streaming"]).action == .profile("streaming"))
    }

    @Test func pluginWithSettingsTypedLikeYAML() throws {
        let button = try Self.button(["--name", "Vol", "--plugin", "audio", "--command", "volume",
                                      "--setting", "step=5", "--setting", "ratio=0.5", "--setting", "mute=yes",
                                      "--setting", "off=Off", "--setting", "nothing=~", "--setting", "empty=",
                                      "--setting", "label=Loud", "--setting", "quoted=\"5\"", "--setting", "single='yes'",
                                      "--setting", "hex=0x1F", "--setting", "date=2024-01-02", "--setting", "eq=a=b"])
        #expect(button.action == .plugin(id: "audio", command: "volume", settings: [
            "step": .int(5), "ratio": .double(0.5), "mute": .bool(true), "off": .bool(false), "nothing": .null,
            "empty": .null, "label": .string("Loud"), "quoted": .string("5"), "single": .string("yes"),
            "hex": .int(31), "date": .string("2024-01-02"), "eq": .string("a=b"),
        ]))
        #expect(try Self.button(["--name", "P", "--plugin", "p", "--command", "c"]).action == .plugin(id: "p", command: "c"))
    }

    @Test func anEmptyIconIsNoIcon() throws {
        #expect(try Self.button(["--name", "A", "--icon", "", "--open", "x"]).icon == nil)
    }

    @Test(arguments: [
        (["--name", "A", "--page", "sideways"], "--page must be next, previous or a page number from 0, not 'sideways'"),
        (["--name", "A", "--page", "-1"], "--page must be next, previous or a page number from 0, not '-1'"),
        (["--name", " ", "--open", "x"], "a button needs a non-empty name"),
        (["--name", "A", "--run", ""], "button 'A': run needs a command"),
        (["--name", "A", "--open", ""], "button 'A': open needs a URL or path"),
        (["--name", "A", "--plugin", "p", "--command", "c", "--setting", "=1"], "--setting must be KEY=VALUE, not '=1'"),
        (["--name", "A", "--plugin", "p", "--command", "c", "--setting", "x"], "--setting must be KEY=VALUE, not 'x'"),
        (["--name", "A", "--plugin", "p", "--command", "c", "--setting", "k=1", "--setting", "k=2"],
         "--setting k is given twice; give each setting once"),
        (["--name", "A", "--plugin", "p", "--command", "c", "--setting", "k=.inf"],
         "--setting k=.inf is not a finite number, which JSON cannot carry; quote it for the text"),
        (["--name", "A", "--plugin", "p", "--command", "c", "--setting", "k=99999999999999999999"],
         "--setting k: the number 99999999999999999999 is too large"),
        (["--name", "A", "--open", "x", "--setting", "k=1"], "--setting only goes with --plugin; give --plugin too or leave --setting out"),
        (["--name", "A", "--run", "x", "--profile", "y"], "give only one of --run and --profile (what the button does)"),
        (["--name", "A"], "set needs one of --run, --open, --page, --profile or --plugin (what the button does)"),
        (["--open", "x"], "set needs --name N"),
        (["--name", "A", "--plugin", "p"], "--plugin needs --command C as well"),
    ] as [([String], String)])
    func mistakes(_ flags: [String], _ problem: String) {
        #expect(Self.failure(flags) == problem)
    }
}
