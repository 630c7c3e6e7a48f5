import DeckDBus
import DeckModel
import DeckPluginKit
@testable import MediaPlugin
import Testing

/// The media plugin's machine, driven directly: players appearing and
/// leaving, `any` following the most recently active one, faces sent only
/// when they change, presses reaching the right player.
@Suite struct MediaStateTests {
    static let mpv = "org.mpris.MediaPlayer2.mpv"
    static let vlc = "org.mpris.MediaPlayer2.vlc.instance42"

    static func button(_ index: Int, _ command: String = "play-pause", _ settings: [String: DeckValue] = [:]) -> PluginButton {
        PluginButton(page: 0, index: index, name: "B\(index)", command: command, settings: settings)
    }

    static func press(_ index: Int, _ command: String = "play-pause", _ settings: [String: DeckValue] = [:],
                      phase: PluginPress.Phase = .tap) -> PluginPress {
        PluginPress(phase: phase, command: command, settings: settings,
                    button: PluginButtonReference(page: 0, index: index, name: "B\(index)"), device: nil)
    }

    static func metadata(title: String, art: String? = nil) -> DBusValue {
        var entries: [String: DBusValue] = ["xesam:title": .string(title, truncated: false)]
        if let art { entries["mpris:artUrl"] = .string(art, truncated: false) }
        return .dictionary(entries, truncated: false)
    }

    static func shows(_ actions: [MediaState.Action]) -> [MediaState.Slot: MediaState.Face] {
        var faces: [MediaState.Slot: MediaState.Face] = [:]
        for case .show(let slot, let face, _) in actions { faces[slot] = face }
        return faces
    }

    /// A connected machine with mpv playing "One" (at activity 1) and the given buttons.
    static func withMPV(_ buttons: [PluginButton] = [button(0)]) -> MediaState {
        var state = MediaState()
        _ = state.handle(.buttons(buttons))
        _ = state.handle(.connected)
        _ = state.handle(.owner(name: mpv, owner: ":1.5"))
        _ = state.handle(.allProperties(name: mpv, values: ["PlaybackStatus": .string("Playing", truncated: false),
                                                            "Metadata": metadata(title: "One", art: "file:///a.png")]))
        return state
    }

    @Test func beforeAnyPlayerEveryButtonShowsNoPlayer() {
        var state = MediaState()
        let actions = state.handle(.buttons([Self.button(0), Self.button(1, "next")]))
        #expect(Self.shows(actions) == [MediaState.Slot(page: 0, index: 0): MediaState.Face(state: "no-player"),
                                        MediaState.Slot(page: 0, index: 1): MediaState.Face(state: "no-player")])
        #expect(state.handle(.connected) == [.listNames])  // nothing changed on the buttons
    }

    @Test func aPlayerOnTheBusIsAskedForItsOwnerThenItsProperties() {
        var state = MediaState()
        _ = state.handle(.connected)
        #expect(state.handle(.names(["org.freedesktop.DBus", ":1.5", Self.mpv])) == [.askOwner(Self.mpv)])
        let actions = state.handle(.owner(name: Self.mpv, owner: ":1.5"))
        #expect(actions.contains(.askProperties(Self.mpv)))
    }

    @Test func thePlayersStateTitleAndArtShowAndOnlyChangesAreSent() {
        var state = Self.withMPV()
        let slot = MediaState.Slot(page: 0, index: 0)
        #expect(state.shown[slot] == MediaState.Face(state: "playing", title: "One", art: "file:///a.png"))
        let paused = state.handle(.propertiesChanged(sender: ":1.5", interface: "org.mpris.MediaPlayer2.Player",
                                                     changed: ["PlaybackStatus": .string("Paused", truncated: false)],
                                                     invalidated: []))
        #expect(paused == [.show(slot, face: MediaState.Face(state: "paused", title: "One", art: "file:///a.png"),
                                 previous: MediaState.Face(state: "playing", title: "One", art: "file:///a.png"))])
        // The same again, and a signal from another sender or interface: nothing to send.
        #expect(state.handle(.propertiesChanged(sender: ":1.5", interface: "org.mpris.MediaPlayer2.Player",
                                                changed: ["PlaybackStatus": .string("Paused", truncated: false)],
                                                invalidated: [])).isEmpty)
        #expect(state.handle(.propertiesChanged(sender: ":1.9", interface: "org.mpris.MediaPlayer2.Player",
                                                changed: ["PlaybackStatus": .string("Stopped", truncated: false)],
                                                invalidated: [])).isEmpty)
        #expect(state.handle(.propertiesChanged(sender: ":1.5", interface: "org.mpris.MediaPlayer2",
                                                changed: ["PlaybackStatus": .string("Stopped", truncated: false)],
                                                invalidated: [])).isEmpty)
    }

    @Test func anyFollowsTheMostRecentlyActivePlayerAndANamedButtonItsOwn() {
        var state = Self.withMPV([Self.button(0), Self.button(1, "next", ["player": .string("vlc")]),
                                  Self.button(2, "stop", ["player": .string("mpv")])])
        let any = MediaState.Slot(page: 0, index: 0), vlcSlot = MediaState.Slot(page: 0, index: 1)
        #expect(state.shown[vlcSlot]?.state == "no-player")
        _ = state.handle(.owner(name: Self.vlc, owner: ":1.7"))
        _ = state.handle(.allProperties(name: Self.vlc, values: ["PlaybackStatus": .string("Paused", truncated: false),
                                                                 "Metadata": Self.metadata(title: "Two")]))
        // vlc is newer but paused: a playing player wins.
        #expect(state.shown[any]?.title == "One")
        #expect(state.shown[vlcSlot] == MediaState.Face(state: "paused", title: "Two"))
        _ = state.handle(.propertiesChanged(sender: ":1.5", interface: "org.mpris.MediaPlayer2.Player",
                                            changed: ["PlaybackStatus": .string("Paused", truncated: false)], invalidated: []))
        // Both paused: the one most recently active (vlc appeared after mpv started playing).
        #expect(state.shown[any]?.title == "Two")
        _ = state.handle(.propertiesChanged(sender: ":1.5", interface: "org.mpris.MediaPlayer2.Player",
                                            changed: ["PlaybackStatus": .string("Playing", truncated: false)], invalidated: []))
        #expect(state.shown[any]?.title == "One")
        #expect(state.handle(.press(Self.press(1, "next", ["player": .string("vlc")])))
            == [.call(player: Self.vlc, member: "Next", arguments: [], slot: MediaState.Slot(page: 0, index: 1))])
        #expect(state.handle(.press(Self.press(0, "seek", ["seconds": .int(-10)])))
            == [.call(player: Self.mpv, member: "Seek", arguments: [.int64(-10_000_000)], slot: MediaState.Slot(page: 0, index: 0))])
    }

    @Test func aPlayerThatLeavesHandsAnyToTheNextAndTheLastLeavesNoPlayer() {
        var state = Self.withMPV()
        let slot = MediaState.Slot(page: 0, index: 0)
        _ = state.handle(.owner(name: Self.vlc, owner: ":1.7"))
        _ = state.handle(.allProperties(name: Self.vlc, values: ["Metadata": Self.metadata(title: "Two")]))
        _ = state.handle(.owner(name: Self.mpv, owner: ""))
        #expect(state.shown[slot] == MediaState.Face(state: "stopped", title: "Two"))
        _ = state.handle(.owner(name: Self.vlc, owner: ""))
        #expect(state.shown[slot] == MediaState.Face(state: "no-player"))
    }

    @Test func aPressWithNoPlayerIsAStateAndAFlashNotACall() {
        var state = MediaState()
        _ = state.handle(.buttons([Self.button(0)]))
        _ = state.handle(.connected)
        let actions = state.handle(.press(Self.press(0)))
        #expect(actions.contains(.alert(MediaState.Slot(page: 0, index: 0))))
        #expect(!actions.contains { if case .call = $0 { true } else { false } })
        #expect(state.shown[MediaState.Slot(page: 0, index: 0)]?.state == "no-player")
    }

    @Test func aCallThePlayerRefusesFlashesTheButtonThatMadeIt() {
        var state = Self.withMPV()
        let slot = MediaState.Slot(page: 0, index: 0)
        _ = state.handle(.press(Self.press(0)))
        let error = DBusMessage(kind: .error(cookie: 3, name: "org.freedesktop.DBus.Error.NoReply", message: "timed out"))
        let (input, log) = MediaState.input(for: error, request: .call(player: Self.mpv, member: "PlayPause", slot: slot))
        #expect(log == "PlayPause on \(Self.mpv) failed (org.freedesktop.DBus.Error.NoReply: timed out)")
        #expect(input == .callFailed(slot))
        #expect(state.handle(.callFailed(slot)) == [.alert(slot)], "the face itself is unchanged: the player says what it does")
    }

    @Test func onlyTheDownEdgeOrATapPresses() {
        var state = Self.withMPV()
        #expect(state.handle(.press(Self.press(0, phase: .down)))
            == [.call(player: Self.mpv, member: "PlayPause", arguments: [], slot: MediaState.Slot(page: 0, index: 0))])
        #expect(state.handle(.press(Self.press(0, phase: .up))).isEmpty)
    }

    @Test func theBusGoingAwayShowsNoPlayerAndALogLine() {
        var state = Self.withMPV()
        let actions = state.handle(.disconnected(reason: "reading from the session bus failed"))
        #expect(actions.contains { if case .log(.warning, let text) = $0 { text.contains("session bus is gone") } else { false } })
        #expect(Self.shows(actions) == [MediaState.Slot(page: 0, index: 0): MediaState.Face(state: "no-player")])
        let press = state.handle(.press(Self.press(0)))
        #expect(press.contains(.alert(MediaState.Slot(page: 0, index: 0))))
    }

    @Test func aButtonWithBadSettingsSaysSoOnItselfAndInTheLog() {
        var state = MediaState()
        let actions = state.handle(.buttons([Self.button(3, "seek", ["seconds": .string("ten")])]))
        #expect(actions.contains { if case .log(.warning, let text) = $0 { text.hasPrefix("button 'B3' at 0/3: settings.seconds") } else { false } })
        #expect(Self.shows(actions) == [MediaState.Slot(page: 0, index: 3): MediaState.Face(state: nil, title: "⚠ settings")])
    }

    @Test func aNewButtonsListSendsEveryFaceAgain() {
        var state = Self.withMPV()
        let again = state.handle(.buttons([Self.button(0)]))
        #expect(again == [.show(MediaState.Slot(page: 0, index: 0),
                                face: MediaState.Face(state: "playing", title: "One", art: "file:///a.png"), previous: nil)])
    }

    @Test func badMetadataIsLoggedOnceAndShowsWhatIsGood() {
        var state = Self.withMPV()
        let bad: [String: DBusValue] = ["PlaybackStatus": .string("Dancing", truncated: false),
                                        "Metadata": .dictionary(["xesam:title": .other(signature: "ay"),
                                                                 "mpris:artUrl": .int32(3)], truncated: false)]
        let first = state.handle(.allProperties(name: Self.mpv, values: bad))
        let logs = first.compactMap { if case .log(.warning, let text) = $0 { text } else { nil } }
        #expect(logs == ["player \(Self.mpv): PlaybackStatus is 'Dancing', not Playing, Paused or Stopped; ignored",
                         "player \(Self.mpv): xesam:title is type 'ay', not a string; ignored",
                         "player \(Self.mpv): mpris:artUrl is an integer, not a string; ignored"])
        #expect(state.shown[MediaState.Slot(page: 0, index: 0)] == MediaState.Face(state: "playing"))
        let second = state.handle(.allProperties(name: Self.mpv, values: bad))
        #expect(!second.contains { if case .log = $0 { true } else { false } })
    }

    @Test func aFloodOfPlayerNamesIsCapped() {
        var state = MediaState()
        _ = state.handle(.connected)
        var warnings = 0
        for number in 0..<(MediaState.maximumPlayers + 10) {
            for case .log(.warning, _) in state.handle(.owner(name: MediaState.prefix + "p\(number)", owner: ":1.\(number)")) {
                warnings += 1
            }
        }
        #expect(state.players.count == MediaState.maximumPlayers)
        #expect(warnings == 1)
    }
}
