@testable import DeckCommandLine
import Testing

@Suite("Usage errors: one sentence naming what to fix")
struct UsageErrorTests {
    typealias T = SampleTool

    @Test(arguments: [
        ([], "no command given; run 'tool --help' for usage"),
        (["stauts"], "unknown command 'stauts'; did you mean 'status'?"),
        (["frobnicate"], "unknown command 'frobnicate'; run 'tool --help' for usage"),
        (["sh"], "unknown command 'sh'; did you mean 'show'?"),
        (["--jsno", "status"], "unknown option '--jsno'; did you mean '--json'?"),
        (["--jso", "status"], "unknown option '--jso'; did you mean '--json'?"),
        (["status", "--contrl=x"], "status has no option '--contrl'; did you mean '--control'?"),
        (["--verbose-mode", "status"], "unknown option '--verbose-mode'; run 'tool --help' for usage"),
        (["-x", "status"], "unknown option '-x'; run 'tool --help' for usage"),
        (["show", "--colums", "4"], "show has no option '--colums'; did you mean '--columns'?"),
        (["--columns", "4", "show"], "--columns is an option of show and goes after it; did you mean 'tool show --columns'?"),
        (["--control"], "--control needs a value: --control PATH; run 'tool --help' for usage"),
        (["--control", "--json", "status"],
         "--control needs a value: --control PATH (write --control=--json if the value really starts with '-'); run 'tool --help' for usage"),
        (["export", "-o"], "-o needs a value: -o FILE; run 'tool export --help' for usage"),
        (["status", "--json=yes"], "--json takes no value; run 'tool status --help' for usage"),
        (["set"], "set needs PAGE and INDEX; run 'tool set --help' for usage"),
        (["set", "1"], "set needs INDEX; run 'tool set --help' for usage"),
        (["check"], "check needs at least one FILE; run 'tool check --help' for usage"),
        (["set", "x", "1", "--name", "A", "--open", "u"], "PAGE must be a whole number, not 'x'; run 'tool set --help' for usage"),
        (["set", "1", "0x1", "--name", "A", "--open", "u"], "INDEX must be a whole number, not '0x1'; run 'tool set --help' for usage"),
        (["show", "1", "2"], "show takes [PAGE], so '2' is one argument too many; run 'tool show --help' for usage"),
        (["status", "now"], "status takes no arguments, so 'now' is one too many; run 'tool status --help' for usage"),
        (["show", "--columns", "9"], "--columns must be from 1 to 8, not '9'; run 'tool show --help' for usage"),
        (["show", "--columns", "four"], "--columns must be a whole number, not 'four'; run 'tool show --help' for usage"),
        (["set", "0", "1", "--open", "u"], "set needs --name N; run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A"],
         "set needs one of --run, --open or --plugin (what the button does); run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A", "--run", "x", "--open", "u"],
         "give only one of --run and --open (what the button does); run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A", "--open", "u", "--cwd", "/"],
         "--cwd only goes with --run; give --run too or leave --cwd out; run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A", "--plugin", "p"], "--plugin needs --command C as well; run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A", "--name", "B", "--open", "u"], "--name is given twice; give it once; run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A", "--run", "x", "--timeout", "0"],
         "--timeout must be more than 0 seconds, not '0'; run 'tool set --help' for usage"),
        (["set", "0", "1", "--name", "A", "--run", "x", "--timeout", "nan"],
         "--timeout must be a number, not 'nan'; run 'tool set --help' for usage"),
        (["press", "0", "1", "--down", "--up"], "give only one of --down and --up (which edge of the press); run 'tool press --help' for usage"),
        (["secrte"], "unknown command 'secrte'; run 'tool --help' for usage"),
    ] as [([String], String)])
    func everyMistakeHasItsSentence(_ arguments: [String], _ expected: String) throws {
        let error = try #require(T.failure(arguments))
        #expect(error.description == expected)
    }

    @Test func hiddenOptionsAreNeverSuggested() {
        #expect(T.failure(["--verbos", "status"])?.suggestion == nil)
    }

    @Test func theErrorNamesTheCommandItWasMadeIn() {
        #expect(T.failure(["set", "0"])?.command == ["tool", "set"])
        #expect(T.failure(["--bad"])?.command == ["tool"])
    }
}

@Suite("Did you mean")
struct SuggestionTests {
    @Test(arguments: [
        ("jsno", ["json", "control"], "json"),
        ("contorl", ["json", "control"], "control"),
        ("co", ["json", "control", "columns"], nil),
        ("con", ["json", "control", "columns"], "control"),
        ("cont", ["json", "control", "columns"], "control"),
        ("xyz", ["json", "control"], nil),
        ("STATUS", ["status", "show"], "status"),
        ("shwo", ["status", "show"], "show"),
        ("", ["status"], nil),
        ("snapshot", ["snapshots", "show"], "snapshots"),
        ("profil", ["profiles", "profile"], "profile"),
    ] as [(String, [String], String?)])
    func closestWord(_ word: String, _ candidates: [String], _ expected: String?) {
        #expect(Suggestion.closest(to: word, among: candidates) == expected)
    }

    @Test func distanceCountsASwapAsOneEdit() {
        let scalars = { (text: String) in Array(text.unicodeScalars) }
        #expect(Suggestion.distance(scalars("ab"), scalars("ba")) == 1)
        #expect(Suggestion.distance(scalars("kitten"), scalars("sitting")) == 3)
        #expect(Suggestion.distance(scalars(""), scalars("abc")) == 3)
    }
}
