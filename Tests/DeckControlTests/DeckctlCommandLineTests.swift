import DeckCommandLine
@testable import DeckControl
import DeckTestSupport
import Foundation
import Testing

@Suite("deckctl: declarations, help, usage errors")
struct DeckctlCommandLineTests {
    static let commands = DeckctlCommands.root.subcommands.map(\.name)

    @Test func everyCommandOfCLIMdIsDeclaredAndHasAHandler() {
        #expect(DeckctlCommands.root.declarationProblems == [])
        let contract = ["status", "show", "profiles", "use", "set", "clear", "move", "press", "lock", "unlock", "reload",
                        "snapshots", "restore", "export", "pair", "unpair", "devices", "watch", "check"]
        for name in contract { #expect(Self.commands.contains(name), "\(name)") }
        for name in Self.commands { #expect(Deckctl.handlers[name] != nil, "\(name) has no handler") }
    }

    @Test func synopsesFollowCLIMd() {
        let synopsis = { (name: String) in
            Synopsis.line(of: [DeckctlCommands.root, DeckctlCommands.root.subcommand(named: name)!])
        }
        #expect(Synopsis.line(of: [DeckctlCommands.root]) == "deckctl [--control PATH] [--json] COMMAND [ARGS]")
        #expect(synopsis("set") == "deckctl set PAGE INDEX --name N [--icon I] (--run CMD [--cwd D] [--timeout S] | --open X "
                + "| --page P | --profile P | --plugin ID --command C [--setting K=V]…)")
        #expect(synopsis("move") == "deckctl move PAGE INDEX TO_PAGE TO_INDEX")
        #expect(synopsis("press") == "deckctl press PAGE INDEX [--down | --up]")
        #expect(synopsis("snapshots") == "deckctl snapshots [--profile P]")
        #expect(synopsis("export") == "deckctl export [--profile P] [-o FILE]")
        // CLI.md gives `check FILE…`; `--plugins DIR` (issue 25) adds the manifests that declare settings.
        #expect(synopsis("check") == "deckctl check FILE… [--plugins DIR]…")
        #expect(synopsis("show") == "deckctl show [PAGE] [--columns N]")
    }

    @Test func helpForTheToolAndEveryCommand() {
        let root = DeckctlRun(["--help"])
        #expect(root.status == 0 && root.err.isEmpty)
        for name in Self.commands { #expect(root.text.contains("\n  \(name) "), "\(name)") }
        #expect(root.text.contains("  3   no host answering on the control socket\n"))
        for name in Self.commands {
            for arguments in [[name, "--help"], ["help", name], [name, "-h"]] {
                let help = DeckctlRun(arguments)
                #expect(help.status == 0 && help.err.isEmpty)
                #expect(help.text.hasPrefix("usage: deckctl \(name)"), "\(arguments)")
                for line in help.text.split(separator: "\n") { #expect(DisplayWidth.of(line) <= 80, "\(name): \(line)") }
            }
        }
        let show = DeckctlRun(["show", "--help"]).text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(show.contains("--columns 4 shows 12 slots as a tablet does (4 × 3)"))
    }

    @Test(arguments: [
        (["stauts"], "deckctl: unknown command 'stauts'; did you mean 'status'?"),
        (["show", "--colums", "4"], "deckctl: show has no option '--colums'; did you mean '--columns'?"),
        (["show", "x"], "deckctl: PAGE must be a whole number, not 'x'; run 'deckctl show --help' for usage"),
        (["show", "--columns", "9"],
         "deckctl: --columns must be from 1 to 8 (8 boxes fill a terminal's 80 columns), not '9'; run 'deckctl show --help' for usage"),
        (["move", "0", "1"], "deckctl: move needs TO_PAGE and TO_INDEX; run 'deckctl move --help' for usage"),
        (["clear", "0", "-1"],
         "deckctl: INDEX must be 0 or more (pages and slots count from 0), not '-1'; run 'deckctl clear --help' for usage"),
        (["press", "0", "1", "--down", "--up"],
         "deckctl: give only one of --down and --up (which edge of the press; neither is a whole tap); run 'deckctl press --help' for usage"),
        (["set", "0", "1", "--name", "A"],
         "deckctl: set needs one of --run, --open, --page, --profile or --plugin (what the button does); run 'deckctl set --help' for usage"),
        (["use"], "deckctl: use needs NAME; run 'deckctl use --help' for usage"),
        // The host refused these with its protocol's words ("pair: 'name' must not be empty") and exit 1.
        (["use", ""], "deckctl: NAME must not be empty; run 'deckctl use --help' for usage"),
        (["pair", ""], "deckctl: NAME must not be empty; run 'deckctl pair --help' for usage"),
        (["unpair", "  "], "deckctl: NAME must not be empty, not '  '; run 'deckctl unpair --help' for usage"),
        (["restore", "latest"], "deckctl: GENERATION must be a whole number, not 'latest'; run 'deckctl restore --help' for usage"),
        (["restore", "-1"],
         "deckctl: GENERATION must be 0 or more (a generation that 'deckctl snapshots' lists), not '-1'; run 'deckctl restore --help' for usage"),
        (["completion", "zsh"],
         "deckctl: SHELL must be bash, the one shell deckctl writes completion for, not 'zsh'; run 'deckctl completion --help' for usage"),
        (["--columns", "4", "show"], "deckctl: --columns is an option of show and goes after it; did you mean 'deckctl show --columns'?"),
        (["export", "-o"], "deckctl: -o needs a value: -o FILE; run 'deckctl export --help' for usage"),
        (["lock", "now"], "deckctl: lock takes no arguments, so 'now' is one too many; run 'deckctl lock --help' for usage"),
        (["plugins", "--reset"],
         "deckctl: --reset needs the plugin's id (deckctl plugins PLUGIN --reset); run 'deckctl plugins --help' for usage"),
    ] as [([String], String)])
    func usageErrorsExit2WithOneSentence(_ arguments: [String], _ message: String) {
        let result = DeckctlRun(["--control", "/nonexistent/deckd.sock"] + arguments)
        #expect(result.status == 2)
        #expect(result.err == [message])
        #expect(result.out.isEmpty)
    }

    @Test func completionScriptCoversEveryCommandAndIsValidBash() throws {
        let result = DeckctlRun(["completion", "bash"])
        #expect(result.status == 0)
        for name in Self.commands { #expect(result.text.contains("\n        \(name)) options="), "\(name)") }
        let folder = try TemporaryDirectory(prefix: "completion")
        let script = folder.appending("deckctl.bash")
        try result.text.write(to: script, atomically: true, encoding: .utf8)
        let check = try ProcessRun.run("/bin/bash", ["-n", script.path])
        #expect(check.status == 0, "\(check.err)")
    }
}
