import DeckModel
import DeckPluginKit
import KeysPlugin
import Testing

private func press(_ phase: PluginPress.Phase, _ command: String, _ settings: [String: DeckValue], index: Int = 0)
    -> PluginPress
{
    PluginPress(phase: phase, command: command, settings: settings,
                button: PluginButtonReference(page: 0, index: index, name: "b\(index)"), device: nil)
}

@Suite struct KeysCoreTests {
    @Test func aTapPressesTheChords() {
        var core = KeysCore(names: names)
        #expect(core.press(press(.tap, "press", ["keys": .string("ctrl+c")])) == [.tap([KeyChord([0xFFE3, 0x63])])])
    }

    @Test func aHoldGoesDownOnDownAndUpOnUpOnce() {
        var core = KeysCore(names: names)
        let settings: [String: DeckValue] = ["keys": .string("shift"), "hold": .bool(true)]
        #expect(core.press(press(.down, "press", settings)) == [.hold(ButtonKey(page: 0, index: 0), [KeyChord([0xFFE1])])])
        #expect(core.press(press(.down, "press", settings)) == [])
        #expect(core.press(press(.up, "press", settings)) == [.up(ButtonKey(page: 0, index: 0))])
        #expect(core.press(press(.up, "press", settings)) == [])
    }

    @Test func theEndAndAButtonThatLeftReleaseHolds() {
        var core = KeysCore(names: names)
        _ = core.press(press(.down, "press", ["keys": .string("a"), "hold": .bool(true)], index: 3))
        #expect(core.buttons([]) == [.up(ButtonKey(page: 0, index: 3))])
        _ = core.press(press(.down, "press", ["keys": .string("a"), "hold": .bool(true)], index: 3))
        #expect(core.end() == [.releaseAll])
        #expect(core.press(press(.up, "press", ["keys": .string("a"), "hold": .bool(true)], index: 3)) == [])
    }

    @Test func badSettingsShowOnTheButtonAndInTheLogOnce() {
        var core = KeysCore(names: names)
        let bad = PluginButton(page: 1, index: 2, name: "Tab", command: "press", settings: ["keys": .string("ctrl+tba")])
        let first = core.buttons([bad])
        #expect(first.count == 2)
        #expect(first.first == .setTitle(bad.reference, "unknown key tba: Tab?"))
        guard case .log(_, let line)? = first.last else { Issue.record("no log line"); return }
        #expect(line.contains("'Tab'") && line.contains("column 6"))
        #expect(core.buttons([bad]).count == 1)  // the title again, not the log line
        var fixed = bad
        fixed.settings = ["keys": .string("ctrl+tab")]
        #expect(core.buttons([fixed]) == [.setTitle(bad.reference, nil)])
    }

    @Test(arguments: [
        ("press", [:], "keys"), ("press", ["keys": .int(3)], "keys"), ("press", ["keys": .string("a"), "hold": .string("yes")], "hold"),
        ("type", [:], "text"),
    ] as [(String, [String: DeckValue], String)])
    func missingOrWrongSettingsAreNamed(command: String, settings: [String: DeckValue], setting: String) {
        var core = KeysCore(names: names)
        let actions = core.press(press(.tap, command, settings))
        #expect(actions.first == .setTitle(PluginButtonReference(page: 0, index: 0, name: "b0"), "settings.\(setting)?"))
        #expect(actions.contains(.alert(PluginButtonReference(page: 0, index: 0, name: "b0"))))
    }

    @Test func longTextAndUnknownCommandsAreRefused() {
        var core = KeysCore(names: names)
        let long = String(repeating: "가", count: 4097)
        #expect(core.press(press(.tap, "type", ["text": .string(long)])).first
            == .setTitle(PluginButtonReference(page: 0, index: 0, name: "b0"), "text too long"))
        #expect(core.press(press(.tap, "type", ["text": .string(String(long.dropLast()))])) == [.type(String(long.dropLast()))])
        #expect(core.press(press(.tap, "shout", [:])).first
            == .setTitle(PluginButtonReference(page: 0, index: 0, name: "b0"), "no command shout"))
    }

    @Test func withoutABackEndEveryButtonSaysWhy() {
        let problem = KeysError.noBackEnd(reason: "DISPLAY is not set")
        var core = KeysCore(names: names, problem: problem)
        let button = PluginButton(page: 0, index: 0, name: "T", command: "type", settings: ["text": .string("hi")])
        #expect(core.buttons([button]).first == .setTitle(button.reference, "no keyboard back end: DISPLAY is not set"))
        #expect(core.press(press(.tap, "type", ["text": .string("hi")])).first
            == .setTitle(button.reference.with(name: "b0"), "no keyboard back end: DISPLAY is not set"))
    }

    @Test func theBackEndChoiceSaysWhatIsMissing() {
        func reason(_ environment: [String: String]) -> String {
            switch KeyboardBackEnds.choose(environment: { environment[$0] }, uinputWritable: { false }) {
            case .success(let backEnd): return backEnd.summary
            case .failure(let error): return "\(error)"
            }
        }
        #expect(reason([:]).hasPrefix("no keyboard back end: DISPLAY is not set"))
        #expect(reason(["WAYLAND_DISPLAY": "wayland-0"]).contains("portal back end is not built yet"))
        #expect(reason([:]).contains("and /dev/uinput is not writable"))
        let forced = reason(["DECK_KEYS_BACKEND": "uinput"])  // no /dev/uinput here; a device where there is one
        #expect(forced.hasPrefix("uinput virtual keyboard") || forced.contains("/dev/uinput"), "\(forced)")
        #expect(reason(["DECK_KEYS_BACKEND": "portal"]).contains("portal back end (Wayland) is not built yet"))
        #expect(reason(["DECK_KEYS_BACKEND": "nope"]).contains("not one of xtest, portal, uinput"))
        #expect(reason(["DISPLAY": ":no-such-display-999"]).contains("cannot open the X display"))
    }
}

extension PluginButtonReference {
    fileprivate func with(name: String) -> PluginButtonReference {
        PluginButtonReference(page: page, index: index, name: name)
    }
}
