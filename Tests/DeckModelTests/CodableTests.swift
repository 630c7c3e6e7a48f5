import DeckModel
import DeckTestSupport
import Foundation
import Testing

@Suite("JSON of PROTOCOL.md §3")
struct CodableTests {
    static let actions: [DeckAction] = [
        .run(command: "make -C ~/src/app"),
        .run(command: "make", cwd: "~/src", timeout: 600),
        .run(command: "sleep 1", timeout: 0.5),
        .run(command: "systemctl --user restart backup", cwd: "~", follow: "backup-status --watch"),
        .open("~"),
        .page(.next), .page(.previous), .page(.number(3)),
        .profile("streaming"),
        .plugin(id: "audio", command: "toggle-mute"),
        .plugin(id: "counter", command: "increment", settings: ["step": .int(2), "name": .string("x"), "on": .bool(true)]),
    ]

    @Test(arguments: actions)
    func actionRoundTrip(_ action: DeckAction) throws {
        let button = DeckButton(name: "B", icon: "🎙️", action: action)
        let data = try JSONEncoder().encode(button)
        #expect(try JSONDecoder().decode(DeckButton.self, from: data) == button)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let encodedAction = try #require(object["action"] as? [String: Any])
        #expect(encodedAction.keys.filter(DeckAction.kindKeys.contains) == [action.kind])
    }

    @Test func exactWireShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let layout = try Fixture.layout([(0, 1, Fixture.files)], slots: 2)
        let text = String(decoding: try encoder.encode(layout), as: UTF8.self)
        #expect(text == #"{"pages":[{"buttons":[null,{"action":{"open":"~"},"icon":"folder","name":"Files"}]},{"buttons":[null,null]}],"slotsPerPage":2}"#)
        #expect(String(decoding: try encoder.encode(DeckAction.page(.number(2))), as: UTF8.self) == #"{"page":2}"#)
        let run = DeckAction.run(command: "x", cwd: "/", timeout: 600)
        #expect(String(decoding: try encoder.encode(run), as: UTF8.self) == #"{"cwd":"\/","run":"x","timeout":600}"#)
    }

    static let rejected: [String] = [
        #"{"name":"A","action":{"run":"x","open":"y"}}"#,
        #"{"name":"A","action":{}}"#,
        #"{"action":{"run":"x"}}"#,
        #"{"name":"","action":{"run":"x"}}"#,
        #"{"name":"A"}"#,
        #"{"name":"A","action":{"page":"sideways"}}"#,
        #"{"name":"A","action":{"plugin":"p"}}"#,
        #"{"name":"A","action":{"run":5}}"#,
        #"{"name":"A","action":{"run":"x","timeout":0}}"#,
    ]

    @Test(arguments: rejected)
    func decodingRejects(_ json: String) {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(DeckButton.self, from: Data(json.utf8)) }
    }

    @Test func twoKindsSaySoInTheError() {
        let json = #"{"name":"A","action":{"run":"x","open":"y"}}"#
        do {
            _ = try JSONDecoder().decode(DeckButton.self, from: Data(json.utf8))
            Issue.record("decoded an action with two kinds")
        } catch {
            #expect(String(describing: error).contains("exactly one of run, open, page, profile, plugin"))
        }
    }

    @Test func layoutPagesMustHaveEverySlot() {
        let json = #"{"slotsPerPage":3,"pages":[{"buttons":[null,null]}]}"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(DeckLayout.self, from: Data(json.utf8)) }
    }

    @Test func unknownFieldsAreIgnored() throws {
        let json = #"{"name":"A","future":1,"action":{"open":"x","extra":true}}"#
        let button = try JSONDecoder().decode(DeckButton.self, from: Data(json.utf8))
        #expect(button == DeckButton(name: "A", action: .open("x")))
    }

    @Test func randomLayoutsRoundTrip() throws {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let layout = RandomLayouts.layout(using: &rng)
            let back = try JSONDecoder().decode(DeckLayout.self, from: JSONEncoder().encode(layout))
            #expect(back == layout)
        }
    }
}
