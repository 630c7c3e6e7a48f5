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
            switch KeyboardBackEnds.choose(environment: { environment[$0] }, uinputWritable: { false },
                                           portalProblem: { "nothing owns org.freedesktop.portal.Desktop" }) {
            case .success(let backEnd): return backEnd.summary
            case .failure(let error): return "\(error)"
            }
        }
        #expect(reason([:]).hasPrefix("no keyboard back end: DISPLAY is not set"))
        #expect(reason(["WAYLAND_DISPLAY": "wayland-0"])
            .hasSuffix("; this is a Wayland session, and the RemoteDesktop portal cannot be used: nothing owns org.freedesktop.portal.Desktop"))
        #expect(reason([:]).contains("and /dev/uinput is not writable"))
        let forced = reason(["DECK_KEYS_BACKEND": "uinput"])  // no /dev/uinput here; a device where there is one
        #expect(forced.hasPrefix("uinput virtual keyboard") || forced.contains("/dev/uinput"), "\(forced)")
        #expect(reason(["DECK_KEYS_BACKEND": "portal", "DISPLAY": ":0"])
            == "no keyboard back end: the RemoteDesktop portal cannot be used: nothing owns org.freedesktop.portal.Desktop")
        #expect(reason(["DECK_KEYS_BACKEND": "nope"]).contains("not one of portal, xtest, uinput"))
        #expect(reason(["DISPLAY": ":no-such-display-999"]).contains("cannot open the X display"))
    }
}

extension KeysCoreTests {
    @Test func thePortalAnsweringIsChosenInAWaylandSessionAndWhenForced() {
        for environment in [["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], ["DECK_KEYS_BACKEND": "portal"]] {
            var probed = false
            let chosen = KeyboardBackEnds.choose(environment: { environment[$0] }, uinputWritable: { false },
                                                 portalProblem: { probed = true; return nil })
            #expect(probed)
            guard case .success(let backEnd) = chosen else { return #expect(Bool(false), "\(chosen)") }
            #expect(backEnd.summary == "RemoteDesktop portal (org.freedesktop.portal.Desktop)")
        }
        var probed = false
        _ = KeyboardBackEnds.choose(environment: { ["DISPLAY": ":no-such-display-999"][$0] }, uinputWritable: { false },
                                    portalProblem: { probed = true; return nil })
        #expect(!probed, "no Wayland session and nothing forced: the portal is not asked")
    }

    @Test func aPortalConditionShowsOnEveryButtonAndReleasesKeysUntilItCanTypeAgain() {
        var core = KeysCore(names: names)
        let good = PluginButton(page: 0, index: 0, name: "T", command: "press", settings: ["keys": .string("shift"), "hold": .bool(true)])
        let typo = PluginButton(page: 0, index: 1, name: "Typo", command: "press", settings: ["keys": .string("shfit")])
        _ = core.buttons([good, typo])
        _ = core.press(press(.down, "press", ["keys": .string("shift"), "hold": .bool(true)]))
        let denied = PortalCondition.denied.problem
        let lost = core.backEndChanged(problem: denied, buttons: [good, typo])
        #expect(lost.contains(.setTitle(good.reference, "consent denied")))
        #expect(lost.contains(.setTitle(typo.reference, "consent denied")))
        #expect(lost.last == .releaseAll)
        #expect(core.backEndChanged(problem: denied, buttons: [good, typo]).isEmpty, "an unchanged condition does nothing")
        #expect(core.press(press(.up, "press", ["keys": .string("shift"), "hold": .bool(true)])).isEmpty,
                "the hold was already let go")
        let back = core.backEndChanged(problem: nil, buttons: [good, typo])
        #expect(back.contains(.setTitle(good.reference, nil)))
        #expect(back.contains(.setTitle(typo.reference, "unknown key shfit: shift?")), "a typo still shows once the portal works")
        #expect(!back.contains(.releaseAll))
    }
}

extension PluginButtonReference {
    fileprivate func with(name: String) -> PluginButtonReference {
        PluginButtonReference(page: page, index: index, name: name)
    }
}
