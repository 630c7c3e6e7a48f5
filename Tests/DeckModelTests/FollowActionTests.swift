import DeckModel
import Testing

/// `follow` on a `run` action (docs/faces.md §6) in the model: its JSON
/// place and its rule.
@Suite("run actions with follow")
struct FollowActionTests {
    @Test("follow is written after the run's other fields, and read back")
    func json() throws {
        let button = DeckButton(name: "Backup", action: .run(command: "backup", timeout: 5, follow: "backup-status --watch"))
        let text = written { $0.write(button) }
        #expect(text == #"{"name":"Backup","action":{"run":"backup","timeout":5,"follow":"backup-status --watch"}}"#)
        #expect(try readJSON(text) { value throws(JSONError) in try DeckButton(json: value) } == button)
    }

    @Test("an empty follow is refused; a button without one is as before")
    func validation() throws {
        #expect(throws: DeckModelError.invalidButton("button 'B': follow needs a command")) {
            try DeckButton(name: "B", action: .run(command: "x", follow: "")).validate()
        }
        try DeckButton(name: "B", action: .run(command: "x")).validate()
        #expect(DeckAction.run(command: "x") != .run(command: "x", follow: "w"), "follow is part of the action's equality")
    }
}
