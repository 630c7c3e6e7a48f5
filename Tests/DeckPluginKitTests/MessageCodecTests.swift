import DeckModel
import DeckPluginKit
import Testing

/// The plugin protocol's lines, both directions: exact bytes, round trips,
/// and what a broken line becomes.
@Suite struct MessageCodecTests {
    static let settings: [String: DeckValue] = [
        "step": .int(2), "ratio": .double(1.0), "on": .bool(true), "name": .string("카운터 🎛️"),
        "nested": .object(["list": .array([.null, .int(-3), .string("a\"b\\c\n")])]),
    ]

    static let events: [PluginEvent] = [
        .hello(PluginHello(hostName: "deckd", hostVersion: "0.1.0", plugin: "counter")),
        .buttons([]),
        .buttons([PluginButton(page: 0, index: 9, name: "Count", command: "increment", settings: settings),
                  PluginButton(page: 3, index: 0, name: "다음", command: "reset")]),
        .press(PluginPress(phase: .down, command: "hold", settings: settings,
                           button: PluginButtonReference(page: 1, index: 4, name: "Hold me"),
                           device: PluginDevice(name: "Kim's iPhone", kind: "phone"))),
        .press(PluginPress(phase: .tap, command: "increment", button: PluginButtonReference(page: 0, index: 0, name: "x"),
                           device: nil)),
        .shutdown,
    ]

    static let messages: [PluginMessage] = [
        .ready,
        .setTitle(page: 0, index: 9, title: "Count: 3"),
        .setTitle(page: 2, index: 11, title: nil),
        .setTitle(page: 0, index: 0, title: "줄\n바꿈 \u{1}"),
        .log(level: .warning, message: "disk \"full\""),
        .log(level: .debug, message: ""),
        .setStatus("connected to OBS 29.0.2 (obs-websocket 5.1.0)"),
        .setStatus(nil),
    ]

    @Test(arguments: events)
    func eventsRoundTrip(_ event: PluginEvent) throws {
        let line = event.line()
        #expect(line.last == 0x0A)
        #expect(!line.dropLast().contains(0x0A), "one line, no line break inside")
        #expect(try PluginEvent(line: line) == event)
        #expect(try PluginEvent(line: line.dropLast()) == event, "the final line feed is optional")
    }

    @Test(arguments: messages)
    func messagesRoundTrip(_ message: PluginMessage) throws {
        let line = message.line()
        #expect(line.last == 0x0A)
        #expect(!line.dropLast().contains(0x0A))
        #expect(try PluginMessage(line: line) == message)
    }

    @Test func exactHostLines() {
        let hello = PluginEvent.hello(PluginHello(hostName: "deckd", hostVersion: "0.1.0", plugin: "counter"))
        #expect(String(decoding: hello.line(), as: UTF8.self)
            == #"{"event":"hello","type":"hello","protocol":1,"host":{"name":"deckd","version":"0.1.0"},"plugin":"counter"}"# + "\n")
        let press = PluginEvent.press(PluginPress(phase: .up, command: "hold", settings: ["b": .int(1), "a": .double(2)],
                                                  button: PluginButtonReference(page: 0, index: 4, name: "Talk"),
                                                  device: PluginDevice(name: "Kim", kind: "phone")))
        #expect(String(decoding: press.line(), as: UTF8.self)
            == #"{"event":"press","type":"press","phase":"up","command":"hold","settings":{"a":2.0,"b":1},"button":{"page":0,"index":4,"name":"Talk"},"device":{"name":"Kim","kind":"phone"}}"# + "\n")
        #expect(String(decoding: PluginEvent.shutdown.line(), as: UTF8.self) == #"{"event":"shutdown","type":"shutdown"}"# + "\n")
        let buttons = PluginEvent.buttons([PluginButton(page: 1, index: 2, name: "C", command: "increment")])
        #expect(String(decoding: buttons.line(), as: UTF8.self)
            == #"{"event":"buttons","type":"buttons","buttons":[{"page":1,"index":2,"name":"C","command":"increment","settings":{}}]}"# + "\n")
    }

    @Test func exactPluginLines() {
        #expect(String(decoding: PluginMessage.ready.line(), as: UTF8.self) == #"{"type":"ready"}"# + "\n")
        #expect(String(decoding: PluginMessage.setTitle(page: 1, index: 2, title: nil).line(), as: UTF8.self)
            == #"{"type":"setTitle","page":1,"index":2,"title":null}"# + "\n")
        #expect(String(decoding: PluginMessage.log(level: .error, message: "x").line(), as: UTF8.self)
            == #"{"type":"log","level":"error","message":"x"}"# + "\n")
    }

    /// Plugins in other languages write what is convenient there.
    @Test func lenientPluginLines() throws {
        #expect(try PluginMessage(line: Array(#"  {"type":"ready","extra":[1,2]}  "#.utf8)) == .ready)
        #expect(try PluginMessage(line: Array(#"{"event":"ready"}"#.utf8)) == .ready, "the other side's key works too")
        #expect(try PluginMessage(line: Array(#"{"type":"setTitle","page":0,"index":1}"#.utf8))
            == .setTitle(page: 0, index: 1, title: nil), "no title: back to the name")
        #expect(try PluginMessage(line: Array(#"{"type":"log","message":"hi"}"#.utf8)) == .log(level: .info, message: "hi"))
        #expect(try PluginMessage(line: Array(#"{"type":"setTitle","page":0.0,"index":1,"title":"t"}"#.utf8))
            == .setTitle(page: 0, index: 1, title: "t"), "7.0-style integers from JSON libraries that write floats")
        #expect(try PluginEvent(line: Array(#"{"type":"shutdown"}"#.utf8)) == .shutdown)
        let press = try PluginEvent(line: Array(#"{"event":"press","command":"c","button":{"page":0,"index":1,"name":"n"}}"#.utf8))
        #expect(press == .press(PluginPress(phase: .tap, command: "c", button: PluginButtonReference(page: 0, index: 1, name: "n"),
                                            device: nil)), "phase defaults to tap, settings to empty")
    }

    @Test(arguments: [
        ("not json", PluginLineError.notJSON(reason: "byte 0: unexpected 'n' where a value should start")),
        ("[1]", .notJSON(reason: "it is an array")),
        (#"{"level":"info"}"#, .missingType(key: "type")),
        (#"{"type":5}"#, .missingType(key: "type")),
        (#"{"type":"shout"}"#, .unknownType("shout")),
        (#"{"type":"setTitle","index":1}"#, .invalidFields(type: "setTitle", reason: "'page' is missing; it must be an integer")),
        (#"{"type":"setTitle","page":-1,"index":1}"#, .invalidFields(type: "setTitle", reason: "'page' must not be negative, not -1")),
        (#"{"type":"setTitle","page":0,"index":1,"title":7}"#,
         .invalidFields(type: "setTitle", reason: "'title' must be a string, not a number")),
        (#"{"type":"log","level":"loud","message":"x"}"#,
         .invalidFields(type: "log", reason: "'level' must be one of debug, info, warning, error, not 'loud'")),
        (#"{"type":"log"}"#, .invalidFields(type: "log", reason: "'message' is missing; it must be a string")),
    ])
    func brokenPluginLines(_ text: String, _ expected: PluginLineError) {
        #expect(throws: expected) { try PluginMessage(line: Array(text.utf8)) }
    }

    @Test func brokenHostLines() {
        #expect(throws: PluginLineError.unknownType("future")) { try PluginEvent(line: Array(#"{"event":"future"}"#.utf8)) }
        #expect(throws: PluginLineError.invalidFields(type: "press", reason: "'phase' must be one of tap, down, up, not 'sideways'")) {
            try PluginEvent(line: Array(#"{"event":"press","phase":"sideways","command":"c","button":{"page":0,"index":0,"name":"n"}}"#.utf8))
        }
        #expect(throws: PluginLineError.invalidFields(type: "press", reason: "'settings' must be an object, not an array")) {
            try PluginEvent(line: Array(#"{"event":"press","command":"c","settings":[],"button":{"page":0,"index":0,"name":"n"}}"#.utf8))
        }
        #expect(throws: PluginLineError.self) { try PluginEvent(line: Array("{\"event\":\"hello\"".utf8)) }
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: PluginLineError.self) { try PluginEvent(line: Array(deep.utf8)) }
    }

    @Test func errorsAreSentences() {
        #expect(PluginLineError.unknownType("shout").description == "unknown message type 'shout'")
        #expect(PluginLineError.tooLong(bytes: 70_000, limit: 65_536).description
            == "the line is longer than 65536 bytes (at least 70000); it was dropped")
    }
}
