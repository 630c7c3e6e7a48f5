import DeckModel
import DeckProtocol
import Testing

/// Exact bytes on the wire, against the examples of PROTOCOL.md.
@Suite("wire shapes")
struct WireShapeTests {
    static let shapes: [(HostMessage, String)] = [
        (.ok(id: 3, revision: 14), #"{"type":"ok","id":3,"revision":14}"#),
        (.ok(id: "a", revision: nil), #"{"type":"ok","id":"a"}"#),
        (.error(id: 3, code: .stale, message: "slot 0/1 no longer holds 'Files'"),
         #"{"type":"error","id":3,"code":"stale","message":"slot 0/1 no longer holds 'Files'"}"#),
        (.error(id: nil, code: .malformed, message: "m"), #"{"type":"error","code":"malformed","message":"m"}"#),
        (.lock(locked: true), #"{"type":"lock","locked":true}"#),
        (.pong(id: 1), #"{"type":"pong","id":1}"#),
        (.showPage(page: 2), #"{"type":"showPage","page":2}"#),
        (.buttonState(page: 1, index: 3, title: nil), #"{"type":"buttonState","page":1,"index":3,"title":null}"#),
        (.buttonState(page: 1, index: 3, title: "3"), #"{"type":"buttonState","page":1,"index":3,"title":"3"}"#),
        (.paired(id: 2, name: "iPad", token: "abc"), #"{"type":"paired","id":2,"name":"iPad","token":"abc"}"#),
        (.event(.move(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, button: "Files", swapped: nil, revision: 14,
                      by: ClientInfo(name: "Kim", kind: "phone", address: "127.0.0.1:5000", protocolLevel: 7))),
         #"{"type":"event","event":"move","fromPage":0,"fromIndex":1,"toPage":1,"toIndex":0,"button":"Files","revision":14,"by":{"name":"Kim","kind":"phone","address":"127.0.0.1:5000","protocol":7}}"#),
        (.event(.lock(locked: true, source: .probe, by: nil)), #"{"type":"event","event":"lock","locked":true,"source":"probe"}"#),
    ]

    @Test(arguments: shapes)
    func hostShape(_ message: HostMessage, _ expected: String) {
        #expect(message.line() == bytes(expected + "\n"))
    }

    @Test func errorCodesAreExactlyTheSpecsStrings() {
        #expect(ErrorCode.allCases.map(\.rawValue) == ["malformed", "tooLarge", "handshake", "unsupported", "unauthorized",
                                                       "stale", "outOfRange", "locked", "invalid", "notFound", "empty",
                                                       "busy", "internal"])
    }

    @Test func welcomeAndLayoutShapes() throws {
        var page = DeckPage.empty(slots: 2)
        page.buttons[0] = Sample.files
        let layout = try DeckLayout(slotsPerPage: 2, pages: [page])
        let layoutJSON = #"{"slotsPerPage":2,"pages":[{"buttons":[{"name":"Files","icon":"folder","action":{"open":"~"}},null]},{"buttons":[null,null]}]}"#
        let welcome = HostMessage.welcome(id: 1, Welcome(protocolLevel: 7, host: HostInfo(version: "0.1.0"), profile: "default",
                                                         revision: 12, locked: false, layout: layout))
        #expect(text(welcome.line()) == #"{"type":"welcome","id":1,"protocol":7,"host":{"name":"deckd","version":"0.1.0","protocol":8,"minProtocol":1},"profile":"default","revision":12,"locked":false,"layout":"# + layoutJSON + "}")
        let broadcast = HostMessage.layout(profile: "default", revision: 14, layout: layout)
        #expect(text(broadcast.line()) == #"{"type":"layout","profile":"default","revision":14,"layout":"# + layoutJSON + "}")
        // PROTOCOL.md §5: `holdSlots` after the layout, as [page, index] pairs; left out when there are none.
        let held = HostMessage.layout(profile: "default", revision: 14, layout: layout, holdSlots: [DeckSlot(page: 0, index: 1)])
        #expect(text(held.line()) == #"{"type":"layout","profile":"default","revision":14,"layout":"# + layoutJSON
            + #","holdSlots":[[0,1]]}"#)
        let heldWelcome = HostMessage.welcome(id: 1, Welcome(protocolLevel: 7, host: HostInfo(version: "0.1.0"), profile: "default",
                                                             revision: 12, locked: false, layout: layout,
                                                             holdSlots: [DeckSlot(page: 0, index: 1)]))
        #expect(text(heldWelcome.line()).hasSuffix(#""layout":"# + layoutJSON + #","holdSlots":[[0,1]]}"#))
    }

    /// A layout encoded once per revision gives the same lines as encoding
    /// it each time, and is never used for another layout.
    @Test func encodedLayoutsAreReusedOnlyForTheirOwnLayout() throws {
        let layout = Sample.layout()
        let encoded = EncodedLayout(layout)
        let messages: [HostMessage] = [
            .welcome(id: 1, Welcome(protocolLevel: 7, host: Sample.host, profile: "default", revision: 12, locked: false, layout: layout)),
            .layout(profile: "default", revision: 12, layout: layout),
            .layout(profile: "default", revision: 13, layout: Sample.layout(slots: 6)),
            .ok(id: 3, revision: 12),
        ]
        for message in messages {
            #expect(message.line(reusing: encoded) == message.line())
        }
        let line = HostMessage.layout(profile: "default", revision: 12, layout: layout).line(reusing: encoded)
        #expect(text(line).hasSuffix(#","layout":"# + String(decoding: encoded.json, as: UTF8.self) + "}"))
    }

    @Test func helloShapeIsTheSpecsExample() {
        let hello = ClientMessage(id: 1, .hello(Hello(protocolLevel: 7, device: Device(name: "Kim's iPhone", kind: "phone"), token: "…")))
        #expect(text(hello.line()) == #"{"type":"hello","id":1,"protocol":7,"device":{"name":"Kim's iPhone","kind":"phone"},"token":"…"}"#)
    }

    @Test func requestShapes() {
        let move = ClientMessage(id: 5, .moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, button: Sample.build))
        #expect(text(move.line()) == #"{"type":"moveButton","id":5,"fromPage":0,"fromIndex":1,"toPage":1,"toIndex":0,"button":{"name":"Build","action":{"run":"make -C ~/src/app","cwd":"~/src","timeout":600}}}"#)
        #expect(text(ClientMessage(.ping).line()) == #"{"type":"ping"}"#)
        #expect(text(ClientMessage(id: "x", .press(page: 0, index: 2, button: nil, phase: .down)).line())
                == #"{"type":"press","id":"x","page":0,"index":2,"phase":"down"}"#)
    }

    @Test func stringsAreEscapedOnlyWhereJSONNeedsIt() {
        let name = "a\"b\\c\nd\te\u{01}f/다음 🎙️"
        let line = HostMessage.export(id: nil, profile: name, yaml: "").line()
        #expect(text(line) == #"{"type":"export","profile":"a\"b\\c\nd\te\u0001f/다음 🎙️","yaml":""}"#)
    }

    @Test func numbersAreWrittenAsJSONNumbers() throws {
        let settings: [String: DeckValue] = ["b": .double(0.25), "a": .double(1e-7), "c": .double(.infinity), "d": .int(-3)]
        let button = DeckButton(name: "P", action: .plugin(id: "p", command: "c", settings: settings))
        let line = text(ClientMessage(.setButton(page: 0, index: 0, button: button)).line())
        #expect(line.hasSuffix(#""settings":{"a":1e-07,"b":0.25,"c":null,"d":-3}}}}"#), "sorted keys, no inf: \(line)")
    }

    /// The reply lines of PROTOCOL.md §4 and the hello of §2 decode as written.
    @Test func specExamplesDecode() throws {
        #expect(try HostMessage.decode(bytes(#"{"type":"ok","id":3,"revision":14}"#)) == .ok(id: 3, revision: 14))
        #expect(try HostMessage.decode(bytes(#"{"type":"error","id":3,"code":"stale","message":"slot 0/1 no longer holds 'Files'"}"#))
                == .error(id: 3, code: .stale, message: "slot 0/1 no longer holds 'Files'"))
        #expect(try HostMessage.decode(bytes(#"{"type":"lock","locked":true}"#)) == .lock(locked: true))
        let hello = try ClientMessage.decode(bytes(#"{"type":"hello","id":1,"protocol":7,"device":{"name":"Kim's iPhone","kind":"phone"},"token":"…"}"#))
        #expect(hello == ClientMessage(id: 1, .hello(Hello(protocolLevel: 7, device: Device(name: "Kim's iPhone", kind: "phone"), token: "…"))))
    }
}
