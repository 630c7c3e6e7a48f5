import DeckModel
import DeckProtocol
import Testing

/// Protocol level 8 (docs/faces.md §4, §5): `buttonFace`, `faces` in
/// `welcome`/`layout`, `setFace`, and the level-7 equality of stale checks.
@Suite struct ButtonFaceTests {
    static let image = FaceImageReference(hash: String(repeating: "ab", count: 32), type: "image/png",
                                          url: "/faces/" + String(repeating: "ab", count: 32) + ".png")

    @Test func hostSpeaksLevel8() throws {
        #expect(ProtocolLevel.current == 8)
        #expect(try ProtocolLevel.negotiate(client: 7) == 7)
        #expect(try ProtocolLevel.negotiate(client: 9) == 8)
        #expect(RequestKind.setFace.isAvailable(atLevel: 8) && !RequestKind.setFace.isAvailable(atLevel: 7))
        #expect(RequestKind.setFace.isControlOnly)
    }

    @Test func exactButtonFace() throws {
        let face = ButtonFace(page: 0, index: 3, title: "Live", state: "muted", image: Self.image, flash: nil)
        let line = String(decoding: HostMessage.buttonFace(face).line(), as: UTF8.self)
        #expect(line == #"{"type":"buttonFace","page":0,"index":3,"title":"Live","state":"muted","image":{"hash":"\#(Self.image.hash)","type":"image/png","url":"\#(Self.image.url)"},"flash":null}"# + "\n")
        #expect(try HostMessage.decode(Array(line.utf8)) == .buttonFace(face))
        let plain = String(decoding: HostMessage.buttonFace(ButtonFace(page: 1, index: 2, flash: .ok)).line(), as: UTF8.self)
        #expect(plain == #"{"type":"buttonFace","page":1,"index":2,"title":null,"state":null,"image":null,"flash":"ok"}"# + "\n")
    }

    @Test func inlineDataRoundTrips() throws {
        var image = Self.image
        image.data = [0x89, 0x50, 0x4E, 0x47]
        let face = ButtonFace(page: 0, index: 0, image: image)
        let line = HostMessage.buttonFace(face).line()
        #expect(String(decoding: line, as: UTF8.self).contains(#""data":"iVBORw==""#))
        #expect(try HostMessage.decode(line) == .buttonFace(face))
    }

    @Test func facesInWelcomeAndLayout() throws {
        let layout = try DeckLayout(slotsPerPage: 2, pages: [DeckPage(buttons: [DeckButton(name: "a", action: .open("x")), nil])])
        let faces = [ButtonFace(page: 0, index: 0, title: "t", state: nil, image: Self.image)]
        let welcome = HostMessage.welcome(id: nil, Welcome(protocolLevel: 8, host: HostInfo(version: "0"), profile: "p", revision: 3,
                                                           locked: false, layout: layout, faces: faces))
        #expect(try HostMessage.decode(welcome.line()) == welcome)
        #expect(String(decoding: welcome.line(), as: UTF8.self).contains(#","faces":[{"page":0,"index":0,"title":"t","state":null,"image":{"#))
        let broadcast = HostMessage.layout(profile: "p", revision: 3, layout: layout, faces: faces)
        #expect(try HostMessage.decode(broadcast.line()) == broadcast)
        let none = HostMessage.layout(profile: "p", revision: 3, layout: layout)
        #expect(!String(decoding: none.line(), as: UTF8.self).contains("faces"), "left out when empty")
    }

    @Test func setFaceRequests() throws {
        let requests: [ClientRequest] = [
            .setFace(page: 0, index: 3, state: "muted", title: nil, clear: false),
            .setFace(page: 1, index: 0, state: nil, title: "Backup: ok", clear: false),
            .setFace(page: 0, index: 0, state: nil, title: nil, clear: true),
        ]
        for request in requests {
            let message = ClientMessage(id: .int(4), request)
            #expect(try ClientMessage.decode(message.line(), access: ClientAccess(level: 8, isControl: true)) == message)
        }
        #expect(String(decoding: ClientMessage(requests[2]).line(), as: UTF8.self)
            == #"{"type":"setFace","page":0,"index":0,"clear":true}"# + "\n")
        #expect(throws: ProtocolError.self) {
            try ClientMessage.decode(Array(#"{"type":"setFace","page":0,"index":0}"#.utf8))
        }
        do {
            _ = try ClientMessage.decode(Array(#"{"type":"setFace","id":1,"page":0,"index":0,"state":"x"}"#.utf8),
                                         access: ClientAccess(level: 7, isControl: true))
            Issue.record("level 7 may not send setFace")
        } catch {
            #expect(error.code == .unsupported)
        }
    }

    @Test func level7StaleChecksIgnoreStyleAndStates() throws {
        let styled = DeckButton(name: "Mic", action: .run(command: "x"), style: ButtonStyle(background: DeckColor("red")),
                                states: [ButtonState(id: "a"), ButtonState(id: "b")])
        let seen = DeckButton(name: "Mic", action: .run(command: "x"))
        let layout = try DeckLayout(slotsPerPage: 2, pages: [DeckPage(buttons: [styled, nil])])
        #expect(ClientRequest.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: seen)
            .resolvingEchoedButtons(in: layout, protocolLevel: 7) == .moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: styled))
        #expect(ClientRequest.clearButton(page: 0, index: 0, expecting: seen).resolvingEchoedButtons(in: layout, protocolLevel: 7)
            == .clearButton(page: 0, index: 0, expecting: styled))
        #expect(ClientRequest.press(page: 0, index: 0, button: seen, phase: .tap).resolvingEchoedButtons(in: layout, protocolLevel: 7)
            == .press(page: 0, index: 0, button: styled, phase: .tap))
        let other = DeckButton(name: "Mic", icon: "x", action: .run(command: "x"))
        #expect(ClientRequest.clearButton(page: 0, index: 0, expecting: other).resolvingEchoedButtons(in: layout, protocolLevel: 7)
            == .clearButton(page: 0, index: 0, expecting: other), "a real difference stays stale")
        #expect(ClientRequest.clearButton(page: 9, index: 0, expecting: seen).resolvingEchoedButtons(in: layout, protocolLevel: 7)
            == .clearButton(page: 9, index: 0, expecting: seen), "out of range is left for the host to refuse")
        #expect(ClientRequest.clearButton(page: 0, index: 0, expecting: seen).resolvingEchoedButtons(in: layout, protocolLevel: 8)
            == .clearButton(page: 0, index: 0, expecting: seen), "level 8 learnt the style: leaving it out is a difference")
    }

    /// A device that reads JSON numbers as doubles (the web deck) echoes a
    /// setting's `2.0` as `2`: the same number, so not stale, at every level.
    @Test(arguments: [7, 8])
    func echoedSettingsNumbersCompareByValue(level: Int) throws {
        let held = DeckButton(name: "Gain", action: .plugin(id: "sound", command: "volume",
                                                            settings: ["step": .double(2.0), "to": .array([.int(1), .double(0.5)])]))
        let echoed = DeckButton(name: "Gain", action: .plugin(id: "sound", command: "volume",
                                                              settings: ["step": .int(2), "to": .array([.double(1), .double(0.5)])]))
        let layout = try DeckLayout(slotsPerPage: 2, pages: [DeckPage(buttons: [held, nil])])
        #expect(held != echoed, "structural equality tells the bytes apart")
        #expect(ClientRequest.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: echoed)
            .resolvingEchoedButtons(in: layout, protocolLevel: level)
            == .moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: held))
        let different = DeckButton(name: "Gain", action: .plugin(id: "sound", command: "volume",
                                                                 settings: ["step": .double(2.5), "to": .array([.int(1), .double(0.5)])]))
        #expect(ClientRequest.press(page: 0, index: 0, button: different, phase: .tap)
            .resolvingEchoedButtons(in: layout, protocolLevel: level)
            == .press(page: 0, index: 0, button: different, phase: .tap), "another number stays stale")
    }
}
