import DeckModel
import Testing

/// `isSameJSON(as:)`: what a device echoes is the same JSON when its numbers
/// are the same numbers, whatever form they were written in.
@Suite("DeckValue: the same JSON value")
struct DeckValueSameJSONTests {
    @Test(arguments: [
        (DeckValue.int(2), DeckValue.double(2.0), true),
        (.double(2.0), .int(2), true),
        (.int(0), .double(-0.0), true),
        (.int(2), .double(2.5), false),
        (.int(2), .int(3), false),
        // 2^53 + 1 has no double of its own: the double it rounds to is another number.
        (.int(9_007_199_254_740_993), .double(9_007_199_254_740_992), false),
        (.int(2), .string("2"), false),
        (.bool(true), .int(1), false),
        (.null, .int(0), false),
        (.array([.int(1), .double(0.5)]), .array([.double(1), .double(0.5)]), true),
        (.array([.int(1)]), .array([.int(1), .int(1)]), false),
        (.object(["a": .array([.double(3)])]), .object(["a": .array([.int(3)])]), true),
        (.object(["a": .int(1)]), .object(["b": .int(1)]), false),
        (.object(["a": .int(1)]), .object(["a": .int(1), "b": .null]), false),
    ])
    func numbersCompareByValue(mine: DeckValue, theirs: DeckValue, same: Bool) {
        #expect(mine.isSameJSON(as: theirs) == same)
        #expect(theirs.isSameJSON(as: mine) == same, "symmetric")
        #expect(mine.isSameJSON(as: mine), "reflexive")
    }

    @Test func actionsAndButtonsCompareTheirSettingsSo() {
        let written = DeckAction.plugin(id: "sound", command: "volume", settings: ["step": .double(5)])
        let echoed = DeckAction.plugin(id: "sound", command: "volume", settings: ["step": .int(5)])
        #expect(written != echoed && written.isSameJSON(as: echoed))
        #expect(!written.isSameJSON(as: .plugin(id: "sound", command: "mute", settings: ["step": .int(5)])))
        #expect(!written.isSameJSON(as: .plugin(id: "sound", command: "volume", settings: nil)))
        #expect(DeckAction.run(command: "x", timeout: 60).isSameJSON(as: .run(command: "x", timeout: 60)))
        let button = DeckButton(name: "Up", action: written)
        #expect(button.isSameJSON(as: DeckButton(name: "Up", action: echoed)))
        #expect(button.isEqualAtLevel7(DeckButton(name: "Up", action: echoed)))
        #expect(!button.isSameJSON(as: DeckButton(name: "Up", icon: "x", action: echoed)))
        #expect(!button.isSameJSON(as: DeckButton(name: "Up", action: echoed, style: ButtonStyle(background: DeckColor("red")))))
    }
}
