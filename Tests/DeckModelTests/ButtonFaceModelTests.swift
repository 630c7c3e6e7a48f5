import DeckModel
import Foundation
import Testing

/// `style` and `states` on buttons (docs/faces.md §1): colours, the JSON both
/// codecs write, validation, and the two equalities.
@Suite struct ButtonFaceModelTests {
    @Test(arguments: [("red", "red"), ("RED", "red"), ("gray", "grey"), ("Grey", "grey"), ("#ABC", "#abc"),
                      ("#1f6F3f", "#1f6f3f"), ("#000000", "#000000")])
    func coloursNormalise(_ text: String, _ normal: String) throws {
        #expect(DeckColor(text)?.text == normal)
    }

    @Test(arguments: ["", "rde", "#12", "#1234", "#12345", "#gggggg", "1f6f3f", "#1f6f3f ", " red", "#1f6f3f00"])
    func notColours(_ text: String) {
        #expect(DeckColor(text) == nil)
    }

    @Test func rgbValues() throws {
        #expect(try #require(DeckColor("#abc")).rgb == (0xaa, 0xbb, 0xcc))
        #expect(try #require(DeckColor("#1f6f3f")).rgb == (0x1f, 0x6f, 0x3f))
        #expect(try #require(DeckColor("white")).rgb == (0xff, 0xff, 0xff))
        for name in DeckColor.palette { #expect(DeckColor(name) != nil) }
    }

    static let mic = DeckButton(
        name: "Mic", icon: "🎙", action: .plugin(id: "sound", command: "mute", settings: ["target": .string("input")]),
        style: ButtonStyle(color: DeckColor("white"), background: DeckColor("#1F6F3F")),
        states: [ButtonState(id: "live"),
                 ButtonState(id: "muted", name: "Mic off", icon: "🔇", style: ButtonStyle(background: DeckColor("red")))])

    @Test func exactJSON() throws {
        var writer = JSONWriter()
        writer.write(Self.mic)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == ##"{"name":"Mic","icon":"🎙","action":{"plugin":"sound","command":"mute","settings":{"target":"input"}},"style":{"color":"white","background":"#1f6f3f"},"states":[{"id":"live"},{"id":"muted","name":"Mic off","icon":"🔇","style":{"background":"red"}}]}"##)
        let plain = DeckButton(name: "x", action: .run(command: "y"), style: ButtonStyle(), states: [])
        var other = JSONWriter()
        other.write(plain)
        #expect(String(decoding: other.bytes, as: UTF8.self) == #"{"name":"x","action":{"run":"y"}}"#, "absent and empty are left out")
        #expect(plain.style == nil)
    }

    @Test func bothCodecsAgree() throws {
        var writer = JSONWriter()
        writer.write(Self.mic)
        let fast = writer.bytes
        #expect(try JSONDecoder().decode(DeckButton.self, from: Data(fast)) == Self.mic)
        let viaCodable = Array(try JSONEncoder().encode(Self.mic))
        let read = try JSONValue.read(viaCodable, maximumDepth: 16, noun: "x") { value throws(JSONError) in try DeckButton(json: value) }
        #expect(read == Self.mic)
    }

    @Test(arguments: [
        (#"{"name":"a","action":{"run":"x"},"style":{"color":"rde"}}"#, "'rde' is not a colour (#rgb, #rrggbb or one of black white grey red orange yellow green teal blue purple pink) (at 'style.color')"),
        (#"{"name":"a","action":{"run":"x"},"style":"red"}"#, "'style' must be a style object"),
        (#"{"name":"a","action":{"run":"x"},"states":[{"id":"A"}]}"#, "may hold only a-z"),
        (#"{"name":"a","action":{"run":"x"},"states":[{"id":"a"},{"id":"a"}]}"#, "state id 'a' is used twice"),
        (#"{"name":"a","action":{"run":"x"},"states":[{"name":"n"}]}"#, "'states[0].id' is missing"),
        (#"{"name":"a","action":{"run":"x"},"states":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"},{"id":"e"},{"id":"f"},{"id":"g"},{"id":"h"},{"id":"i"}]}"#,
         "9 states, more than 8"),
    ])
    func badJSONIsRefused(_ json: String, _ fragment: String) {
        do {
            let button = try JSONValue.read(Array(json.utf8), maximumDepth: 16, noun: "x") { value throws(JSONError) in
                try DeckButton(json: value)
            }
            Issue.record("read \(button) from \(json)")
        } catch {
            #expect(error.description.contains(fragment), "\(error.description)")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeckButton.self, from: Data(json.utf8)) }
    }

    @Test func equalities() {
        var restyled = Self.mic
        restyled.style = ButtonStyle(background: DeckColor("blue"))
        #expect(restyled != Self.mic, "level 8: style counts")
        #expect(restyled.isEqualAtLevel7(Self.mic), "level 7: name, icon and action only")
        var fewer = Self.mic
        fewer.states.removeLast()
        #expect(fewer != Self.mic && fewer.isEqualAtLevel7(Self.mic))
        var renamed = Self.mic
        renamed.name = "Mic 2"
        #expect(!renamed.isEqualAtLevel7(Self.mic))
        #expect(Self.mic.state("muted")?.name == "Mic off" && Self.mic.state("nope") == nil)
    }

    @Test func stateStyleMergesFieldByField() {
        let base = ButtonStyle(color: DeckColor("white"), background: DeckColor("green"))
        #expect(base.merged(with: ButtonStyle(background: DeckColor("red"))) == ButtonStyle(color: DeckColor("white"), background: DeckColor("red")))
        #expect(base.merged(with: nil) == base)
    }
}
