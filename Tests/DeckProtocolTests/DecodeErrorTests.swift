import DeckModel
import DeckProtocol
import Testing

/// Every way a client line can fail, with the code, the echoed id and a
/// word of the sentence that must be there.
@Suite("decode errors")
struct DecodeErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let line: [UInt8]
        let code: ErrorCode
        let id: RequestID?
        let says: String
        var testDescription: String { String(decoding: line.prefix(80), as: UTF8.self) }

        init(_ line: String, _ code: ErrorCode, _ id: RequestID?, _ says: String) {
            self.init(bytes: bytes(line), code, id, says)
        }

        init(bytes: [UInt8], _ code: ErrorCode, _ id: RequestID?, _ says: String) {
            self.line = bytes
            self.code = code
            self.id = id
            self.says = says
        }
    }

    static let button = #"{"name":"Files","action":{"open":"~"}}"#

    static let cases: [Case] = [
        // Not JSON, not an object, no type.
        Case("{nope", .malformed, nil, "not valid JSON"),
        Case("", .malformed, nil, "the line is empty"),
        Case("   ", .malformed, nil, "the line is empty"),
        Case(#"{"type":"ping"} {}"#, .malformed, nil, "after the JSON value"),
        Case(bytes: [0xFF, 0xFE], .malformed, nil, "not valid JSON"),
        Case(bytes: bytes(#"{"type":"ping","id":1,"x":""#) + [0xC3, 0x28] + bytes(#""}"#), .malformed, 1, "UTF-8"),
        Case(bytes: bytes(#"{"id":"a","type":""#) + [0xED, 0xA0, 0x80] + bytes(#""}"#), .malformed, "a", "UTF-8"),
        Case(#"{"type":"ping","id":9,"x":"#, .malformed, 9, "not valid JSON"),
        Case(#"{"type":"ping","id":"tr"#, .malformed, nil, "not closed"),
        Case(#"{"type":"ping","id":4,"x":"\ud800"}"#, .malformed, 4, "surrogate"),
        Case("{\"type\":\"ping\",\"id\":4,\"x\":\"a\tb\"}", .malformed, 4, "control character"),
        Case(#"{"type":"ping","id":4,"x":01}"#, .malformed, 4, "start with 0"),
        Case(#"{"type":"ping","id":4,"x":1e400}"#, .malformed, 4, "too large"),
        Case(String(repeating: "[", count: 200), .malformed, nil, "deeper than 64"),
        Case("[1,2]", .malformed, nil, "JSON object, not an array"),
        Case(#""hello""#, .malformed, nil, "JSON object, not a string"),
        Case("null", .malformed, nil, "JSON object, not null"),
        Case(#"{"id":5}"#, .malformed, 5, "needs a string 'type'"),
        Case(#"{"type":5,"id":"a"}"#, .malformed, "a", "'type' must be a string, not a number"),
        Case(#"{"type":null,"id":"a"}"#, .malformed, "a", "'type' must be a string, not null"),
        // Unreadable ids are not echoed.
        Case(#"{"type":"ping","id":true}"#, .malformed, nil, "'id' must be a string or an integer, not a boolean"),
        Case(#"{"type":"ping","id":1.5}"#, .malformed, nil, "'id' must be a string or an integer"),
        Case(#"{"type":"ping","id":[1]}"#, .malformed, nil, "not an array"),
        Case(#"{"type":"ping","id":1e30}"#, .malformed, nil, "'id' must be a string or an integer"),
        // Unknown types.
        Case(#"{"type":"fly","id":2}"#, .unsupported, 2, "unknown message type 'fly'"),
        Case(#"{"type":"welcome","id":2}"#, .unsupported, 2, "unknown message type 'welcome'"),
        Case(#"{"type":"ping","type":"fly","id":2}"#, .unsupported, 2, "'fly'"),
        // Missing and wrongly typed fields, named.
        Case(#"{"type":"setButton","id":3,"page":0,"button":\#(button)}"#, .malformed, 3, "setButton: 'index' is missing; it must be an integer"),
        Case(#"{"type":"setButton","id":3,"page":"0","index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer, not a string"),
        Case(#"{"type":"setButton","id":3,"page":0.5,"index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer, not a number"),
        Case(#"{"type":"setButton","id":3,"page":99999999999999999999,"index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer"),
        // Fractions too small for a Double round to 0 but are still fractions: refused like 1e-19.
        Case(#"{"type":"setButton","id":3,"page":1e-19,"index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer, not a number"),
        Case(#"{"type":"setButton","id":3,"page":1e-999999999,"index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer, not a number"),
        Case(#"{"type":"setButton","id":3,"page":4.9e-325,"index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer, not a number"),
        Case(#"{"type":"setButton","id":3,"page":-0.000001e-400,"index":1,"button":\#(button)}"#, .malformed, 3, "'page' must be an integer, not a number"),
        Case(#"{"type":"ping","id":1e-999999999}"#, .malformed, nil, "'id' must be a string or an integer"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":null}"#, .malformed, 3, "'button' is missing"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":[]}"#, .malformed, 3, "'button' must be a button object, not an array"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":{"action":{"open":"~"}}}"#, .malformed, 3, "'button.name' is missing"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":{"name":"A","action":{"run":5}}}"#, .malformed, 3, "'button.action.run' must be a string, not a number"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":{"name":"A","action":{"run":"x","timeout":"1"}}}"#, .malformed, 3, "'button.action.timeout' must be a number of seconds"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":{"name":"A","action":{"plugin":"p"}}}"#, .malformed, 3, "'button.action.command' is missing"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":{"name":"A","action":{"plugin":"p","command":"c","settings":[]}}}"#, .malformed, 3, "'button.action.settings' must be an object"),
        Case(#"{"type":"setButton","id":3,"page":0,"index":1,"button":{"name":"A","icon":7,"action":{"open":"~"}}}"#, .malformed, 3, "'button.icon' must be a string"),
        Case(#"{"type":"moveButton","id":"m","fromPage":0,"fromIndex":1,"toPage":0,"toIndex":2}"#, .malformed, "m", "moveButton: 'button' is missing"),
        Case(#"{"type":"press","id":6,"page":0,"index":1,"phase":"hold"}"#, .malformed, 6, "'phase' must be one of tap, down, up, not 'hold'"),
        Case(#"{"type":"clearButton","id":6,"page":0,"index":1,"expecting":5}"#, .malformed, 6, "'expecting' must be a button object"),
        Case(#"{"type":"restore","id":7}"#, .malformed, 7, "'generation' is missing"),
        Case(#"{"type":"hello","id":1,"protocol":7}"#, .malformed, 1, "'device' is missing"),
        Case(#"{"type":"hello","id":1,"protocol":"7","device":{"name":"a","kind":"phone"}}"#, .malformed, 1, "'protocol' must be an integer"),
        Case(#"{"type":"hello","id":1,"protocol":7,"device":{"name":"a","kind":1}}"#, .malformed, 1, "'device.kind' must be a string"),
        Case(#"{"type":"hello","id":1,"protocol":7,"device":{"name":"a","kind":"x"},"token":5}"#, .malformed, 1, "'token' must be a string"),
        // Well-formed buttons that break model rules.
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"","action":{"open":"~"}}}"#, .invalid, 8, "non-empty name"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"  ","action":{"open":"~"}}}"#, .invalid, 8, "non-empty name"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{"run":"x","open":"y"}}}"#, .invalid, 8, "exactly one of run, open, page, profile, plugin (found run and open)"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{}}}"#, .invalid, 8, "(found none)"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{"run":"x","timeout":0}}}"#, .invalid, 8, "timeout must be a positive number"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{"run":"x","timeout":-1}}}"#, .invalid, 8, "timeout"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{"run":""}}}"#, .invalid, 8, "run needs a command"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{"page":"sideways"}}}"#, .invalid, 8, "not 'sideways'"),
        Case(#"{"type":"setButton","id":8,"page":0,"index":1,"button":{"name":"A","action":{"page":-2}}}"#, .invalid, 8, "page numbers start at 0"),
        Case(#"{"type":"moveButton","id":8,"fromPage":0,"fromIndex":1,"toPage":0,"toIndex":2,"button":{"name":"","action":{"open":"~"}}}"#, .invalid, 8, "non-empty name"),
        Case(#"{"type":"useProfile","id":9,"name":""}"#, .invalid, 9, "'name' must not be empty"),
        Case(#"{"type":"pair","id":9,"name":""}"#, .invalid, 9, "'name' must not be empty"),
        // Names go into every status reply and log line: 128 characters at most (Device.maximumNameLength).
        Case(#"{"type":"pair","id":9,"name":"\#(String(repeating: "é", count: 129))"}"#, .invalid, 9,
             "'name' is 129 characters long; at most 128 are allowed"),
        Case(#"{"type":"hello","id":1,"protocol":7,"device":{"name":"\#(String(repeating: "x", count: 1_000_000))","kind":"phone"}}"#,
             .invalid, 1, "'name' is 1000000 characters long; at most 128 are allowed (at 'device')"),
        Case(#"{"type":"hello","id":1,"protocol":7,"device":{"name":"a","kind":"\#(String(repeating: "k", count: 200))"}}"#,
             .invalid, 1, "at most 128 are allowed"),
    ]

    @Test(arguments: cases)
    func failure(_ test: Case) {
        switch clientResult(test.line) {
        case .success(let message):
            Issue.record("decoded \(message)")
        case .failure(let error):
            #expect(error.code == test.code, "\(error)")
            #expect(error.id == test.id, "\(error)")
            #expect(error.message.contains(test.says), "\(error.message)")
            #expect(error.reply == .error(id: test.id, code: test.code, message: error.message))
        }
    }

    static let accepted: [(String, ClientMessage)] = [
        (#"{"type":"ping","id":null}"#, ClientMessage(.ping)),
        (#"{"type":"ping","id":2.0}"#, ClientMessage(id: 2, .ping)),
        (#"  {"type":"ping","id":"x"}  "#, ClientMessage(id: "x", .ping)),
        ("{\"type\":\"ping\",\"id\":-1}\r\n", ClientMessage(id: -1, .ping)),
        (#"{"type":"ping","id":1,"future":{"x":[1,2,{"y":null}]},"more":true}"#, ClientMessage(id: 1, .ping)),
        (#"{"type":"clearButton","page":0,"index":1,"expecting":null}"#, ClientMessage(.clearButton(page: 0, index: 1, expecting: nil))),
        (#"{"type":"press","page":0,"index":1,"phase":null}"#, ClientMessage(.press(page: 0, index: 1, button: nil, phase: .tap))),
        (#"{"type":"press","page":1.0,"index":1e0,"phase":"up"}"#, ClientMessage(.press(page: 1, index: 1, button: nil, phase: .up))),
        (#"{"type":"setButton","page":-1,"index":99,"button":{"name":"Files","extra":1,"action":{"open":"~","extra":[]}}}"#,
         ClientMessage(.setButton(page: -1, index: 99, button: DeckButton(name: "Files", action: .open("~"))))),
        (#"{"type":"setButton","page":0,"index":0,"button":{"name":"\ub2e4\uc74c \ud83c\udf99","action":{"page":"previous"}}}"#,
         ClientMessage(.setButton(page: 0, index: 0, button: DeckButton(name: "다음 🎙", action: .page(.previous))))),
        (#"{"type":"hello","protocol":99,"device":{"name":"t","kind":"watch","os":"x"}}"#,
         ClientMessage(.hello(Hello(protocolLevel: 99, device: Device(name: "t", kind: "watch"))))),
        (#"{"type":"snapshots","profile":null}"#, ClientMessage(.snapshots(profile: nil))),
    ]

    @Test(arguments: accepted)
    func lenientWhereTheSpecAllows(_ line: String, _ expected: ClientMessage) throws {
        #expect(try ClientMessage.decode(bytes(line)) == expected)
    }

    // MARK: Rights and levels, checked before fields

    static let phone = ClientAccess(level: 7, isControl: false)
    static let control = ClientAccess(level: 7, isControl: true)

    @Test func moveNeedsLevelSeven() throws {
        let move = #"{"type":"moveButton","id":4,"fromPage":0,"fromIndex":1,"toPage":0,"toIndex":2,"button":\#(Self.button)}"#
        let refused = try #require(clientResult(move, access: ClientAccess(level: 6, isControl: false)).failure)
        #expect(refused.code == .unsupported && refused.id == 4)
        #expect(refused.message.contains("level 7") && refused.message.contains("level 6"))
        #expect(try clientResult(move, access: Self.phone).get().kind == .moveButton)
    }

    @Test func controlRequestsNeedAControlClient() throws {
        for kind in RequestKind.allCases where kind.isControlOnly {
            let line = #"{"type":"\#(kind.rawValue)","id":"c"}"#
            let refused = try #require(clientResult(line, access: Self.phone).failure, "\(kind)")
            #expect(refused.code == .unauthorized && refused.id == "c", "\(kind)")
        }
        #expect(try clientResult(#"{"type":"status","id":1}"#, access: Self.control).get() == ClientMessage(id: 1, .status))
    }

    @Test func rightsComeBeforeFields() throws {
        // A control request with a missing field, from a phone: unauthorized, not malformed.
        #expect(clientResult(#"{"type":"restore","id":1}"#, access: Self.phone).failure?.code == .unauthorized)
        #expect(clientResult(#"{"type":"restore","id":1}"#, access: Self.control).failure?.code == .malformed)
        // A level-7 request with a broken button at level 1: unsupported.
        #expect(clientResult(#"{"type":"moveButton","id":1}"#, access: ClientAccess(level: 1, isControl: true)).failure?.code == .unsupported)
    }

    @Test func secondHelloIsAHandshakeError() throws {
        let line = #"{"type":"hello","id":2,"protocol":7,"device":{"name":"a","kind":"phone"}}"#
        let refused = try #require(clientResult(line, access: Self.phone).failure)
        #expect(refused.code == .handshake && refused.id == 2)
    }

    @Test func unknownTypeAfterHandshakeIsUnsupported() throws {
        #expect(clientResult(#"{"type":"fly","id":1}"#, access: Self.control).failure == ProtocolError(
            .unsupported, "unknown message type 'fly' (this host speaks protocol level 8)", id: 1, type: "fly"))
    }

    // MARK: The first line

    @Test func helloDecodes() throws {
        let (id, hello) = try ClientMessage.decodeHello(bytes(#"{"type":"hello","id":"h","protocol":3,"device":{"name":"a","kind":"control"}}"#))
        #expect(id == "h" && hello.protocolLevel == 3 && hello.device.isControl && hello.token == nil)
    }

    static let badFirstLines: [(String, RequestID?, String)] = [
        (#"{"type":"ping","id":1}"#, 1, "must be hello, not ping"),
        (#"{"type":"status","id":1}"#, 1, "must be hello, not status"),
        ("{nope", nil, "not valid JSON"),
        (#"{"type":"fly","id":"f"}"#, "f", "unknown message type 'fly'"),
        (#"{"type":"hello","id":1,"protocol":"7","device":{"name":"a","kind":"phone"}}"#, 1, "'protocol' must be an integer"),
        (#"{"type":"hello","id":1,"protocol":7}"#, 1, "'device' is missing"),
    ]

    @Test(arguments: badFirstLines)
    func anythingButHelloFirstIsAHandshakeError(_ line: String, _ id: RequestID?, _ says: String) {
        do {
            let hello = try ClientMessage.decodeHello(bytes(line))
            Issue.record("accepted \(hello)")
        } catch {
            #expect(error.code == .handshake && error.id == id)
            #expect(error.message.contains(says), "\(error.message)")
        }
    }

    @Test func hostSideDecodeFailsClearly() throws {
        let unknown = try #require(Result { () throws(ProtocolError) in try HostMessage.decode(bytes(#"{"type":"hologram","id":3}"#)) }.failure)
        #expect(unknown.code == .unsupported && unknown.id == 3)
        let badCode = try #require(Result { () throws(ProtocolError) in
            try HostMessage.decode(bytes(#"{"type":"error","id":3,"code":"oops","message":"m"}"#))
        }.failure)
        #expect(badCode.code == .malformed && badCode.message.contains("'code' must be one of malformed"))
        let shortPage = #"{"type":"layout","profile":"p","revision":1,"layout":{"slotsPerPage":2,"pages":[{"buttons":[null]}]}}"#
        let short = try #require(Result { () throws(ProtocolError) in try HostMessage.decode(bytes(shortPage)) }.failure)
        #expect(short.code == .malformed && short.message.contains("'layout.pages[0]'"), "\(short.message)")
    }
}

extension Result {
    /// The error, or nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
