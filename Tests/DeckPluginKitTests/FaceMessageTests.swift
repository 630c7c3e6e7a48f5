import DeckModel
import DeckPluginKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The face messages of docs/faces.md §3: targets, exact bytes, round trips,
/// and what a broken one becomes.
@Suite struct FaceMessageTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    static let mute = ButtonTarget.matching(command: "mute", settings: ["target": .string("input")])

    static let messages: [PluginMessage] = [
        .setTitle(target: mute, title: "Muted"),
        .setTitle(target: .matching(command: "mute"), title: nil),
        .setState(target: .slot(page: 1, index: 4), state: "muted"),
        .setState(target: mute, state: nil),
        .setImage(target: .slot(page: 0, index: 0), image: png),
        .setImage(target: .slot(page: 0, index: 0), image: []),
        .setImage(target: mute, image: nil),
        .setImage(target: .slot(page: 0, index: 1), image: (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }),
        .showAlert(target: .slot(page: 2, index: 3)),
        .showOk(target: .matching(command: "record", settings: ["scene": .int(2), "x": .array([.null])])),
    ]

    @Test(arguments: messages)
    func roundTrip(_ message: PluginMessage) throws {
        let line = message.line()
        #expect(line.last == 0x0A)
        #expect(!line.dropLast().contains(0x0A))
        #expect(try PluginMessage(line: line) == message)
    }

    @Test func exactLines() {
        #expect(String(decoding: PluginMessage.setState(target: .slot(page: 0, index: 3), state: "muted").line(), as: UTF8.self)
            == #"{"type":"setState","page":0,"index":3,"state":"muted"}"# + "\n")
        #expect(String(decoding: PluginMessage.setState(target: Self.mute, state: nil).line(), as: UTF8.self)
            == #"{"type":"setState","for":{"command":"mute","settings":{"target":"input"}},"state":null}"# + "\n")
        #expect(String(decoding: PluginMessage.setImage(target: .slot(page: 1, index: 2), image: Array("hi!?".utf8)).line(), as: UTF8.self)
            == #"{"type":"setImage","page":1,"index":2,"image":"aGkhPw=="}"# + "\n")
        #expect(String(decoding: PluginMessage.showAlert(target: .slot(page: 0, index: 0)).line(), as: UTF8.self)
            == #"{"type":"showAlert","page":0,"index":0}"# + "\n")
        #expect(String(decoding: PluginMessage.showOk(target: .matching(command: "c")).line(), as: UTF8.self)
            == #"{"type":"showOk","for":{"command":"c","settings":{}}}"# + "\n")
    }

    @Test func oldSetTitleSpellingIsASlot() {
        #expect(PluginMessage.setTitle(page: 1, index: 2, title: "t") == .setTitle(target: .slot(page: 1, index: 2), title: "t"))
        #expect(PluginMessage.setTitle(page: 1, index: 2, title: "t").target == .slot(page: 1, index: 2))
        #expect(PluginMessage.ready.target == nil)
    }

    /// What other languages' plugins write: no settings, no state, no padding.
    @Test func lenientLines() throws {
        #expect(try PluginMessage(line: Array(#"{"type":"setState","for":{"command":"mute"},"state":"on"}"#.utf8))
            == .setState(target: .matching(command: "mute"), state: "on"))
        #expect(try PluginMessage(line: Array(#"{"type":"setState","page":0,"index":1}"#.utf8))
            == .setState(target: .slot(page: 0, index: 1), state: nil), "no state: back to state 0")
        #expect(try PluginMessage(line: Array(#"{"type":"setImage","page":0,"index":1,"image":"aGkhPw"}"#.utf8))
            == .setImage(target: .slot(page: 0, index: 1), image: Array("hi!?".utf8)), "padding may be left off")
        #expect(try PluginMessage(line: Array(#"{"type":"setImage","page":0,"index":1,"image":null}"#.utf8))
            == .setImage(target: .slot(page: 0, index: 1), image: nil))
        #expect(try PluginMessage(line: Array(#"{"type":"showOk","for":{"command":"c","settings":null}}"#.utf8))
            == .showOk(target: .matching(command: "c")))
    }

    @Test(arguments: [
        (#"{"type":"setState","state":"x"}"#, PluginLineError.invalidFields(type: "setState", reason: "'page' is missing; it must be an integer")),
        (#"{"type":"setState","page":0,"index":1,"for":{"command":"c"}}"#,
         .invalidFields(type: "setState", reason: "name the button by 'page' and 'index' or by 'for', not both")),
        (#"{"type":"showOk","for":"mute"}"#,
         .invalidFields(type: "showOk", reason: "'for' must be an object {command, settings}, not a string")),
        (#"{"type":"showAlert","for":{"settings":{}}}"#,
         .invalidFields(type: "showAlert", reason: "'for.command' is missing; it must be a string")),
        (#"{"type":"showAlert","for":{"command":""}}"#,
         .invalidFields(type: "showAlert", reason: "'command' must not be empty (at 'for')")),
        (#"{"type":"setState","for":{"command":"c","settings":[1]}}"#,
         .invalidFields(type: "setState", reason: "'for.settings' must be an object, not an array")),
        (#"{"type":"setState","page":0,"index":1,"state":3}"#,
         .invalidFields(type: "setState", reason: "'state' must be a string, not a number")),
        (#"{"type":"setImage","page":0,"index":1,"image":"a b"}"#,
         .invalidFields(type: "setImage", reason: "'image' must be base64 of at most 262144 bytes, but ' ' at character 2 is not base64")),
        (#"{"type":"setImage","page":0,"index":1,"image":"abcde"}"#,
         .invalidFields(type: "setImage", reason: "'image' must be base64 of at most 262144 bytes, but its length (5 characters) is not one a base64 encoder makes")),
        (#"{"type":"setImage","page":0,"index":1,"image":"a=bc"}"#,
         .invalidFields(type: "setImage", reason: "'image' must be base64 of at most 262144 bytes, but '=' at character 2 is not base64")),
        (#"{"type":"setImage","page":0,"index":1,"image":[1,2]}"#,
         .invalidFields(type: "setImage", reason: "'image' must be a string of base64, not an array")),
    ])
    func brokenLines(_ text: String, _ expected: PluginLineError) {
        #expect(throws: expected) { try PluginMessage(line: Array(text.utf8)) }
    }

    @Test func imagesOverTheBoundAreRefusedBeforeDecoding() {
        let limit = PluginProtocol.maximumImageBytes
        let fits = PluginMessage.setImage(target: .slot(page: 0, index: 0), image: [UInt8](repeating: 0xAB, count: limit))
        #expect(fits.line().count < PluginProtocol.maximumImageLineBytes, "the largest image fits in one line")
        #expect((try? PluginMessage(line: fits.line())) == fits)
        let over = "{\"type\":\"setImage\",\"page\":0,\"index\":0,\"image\":\"" + String(repeating: "A", count: (limit + 3) / 3 * 4 + 4) + "\"}"
        #expect(throws: PluginLineError.invalidFields(
            type: "setImage", reason: "'image' must be base64 of at most 262144 bytes, but it decodes to 262149 bytes, more than 262144")) {
            try PluginMessage(line: Array(over.utf8))
        }
    }

    @Test func matchingIsASubsetOfSettings() {
        let button = PluginButton(page: 2, index: 5, name: "Mic", command: "mute",
                                  settings: ["target": .string("input"), "device": .string("usb")])
        #expect(Self.mute.matches(button))
        #expect(ButtonTarget.matching(command: "mute").matches(button), "no settings: every button of the command")
        #expect(!ButtonTarget.matching(command: "mute", settings: ["target": .string("output")]).matches(button))
        #expect(!ButtonTarget.matching(command: "mute", settings: ["other": .string("input")]).matches(button))
        #expect(!ButtonTarget.matching(command: "unmute").matches(button))
        #expect(ButtonTarget.slot(page: 2, index: 5).matches(button))
        #expect(!ButtonTarget.slot(page: 5, index: 2).matches(button))
        #expect(button.target == .slot(page: 2, index: 5) && button.reference.target == button.target)
    }
}

/// `send(_:)` with several messages: one write, so one read on the host's side
/// takes them all and the host shows them as one face (docs/faces.md, "Coalescing").
@Suite struct SeveralMessagesInOneWriteTests {
    @Test func theLinesGoOutInOneWriteAndOneReadTakesThemAll() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let connection = PluginConnection(output: ends[1])
        let messages: [PluginMessage] = [.setState(target: .slot(page: 0, index: 1), state: "muted"),
                                         .setTitle(target: .slot(page: 0, index: 1), title: "Mic: off")]
        #expect(connection.send(messages))
        #expect(connection.send([PluginMessage]()), "nothing to send is no failure")
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(count, 0))) == messages.flatMap { $0.line() })
        #expect(read(ends[0], &buffer, buffer.count) == 0, "nothing more: both lines came in the one read")
    }

    @Test func aHostGoneMakesItFalse() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        signal(SIGPIPE, SIG_IGN)
        let connection = PluginConnection(output: ends[1])
        #expect(!connection.send([.log(level: .info, message: "a"), .log(level: .info, message: "b")]))
        #expect(!connection.isConnected)
    }
}
