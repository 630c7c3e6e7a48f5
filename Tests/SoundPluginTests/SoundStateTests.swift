import DeckModel
import DeckPluginKit
import SoundPlugin
import Testing

/// The plugin's state machine, driven directly: no server, no process.
@Suite struct SoundStateTests {
    static let norm = SoundLevel.normal

    static func level(_ percent: Int, muted: Bool = false) -> SoundLevel {
        SoundLevel(muted: muted, channels: [UInt32(percent) * norm / 100, UInt32(percent) * norm / 100])
    }

    static let server: SoundServer = {
        var server = SoundServer()
        server.defaultSink = "speakers"
        server.defaultSource = "mic"
        server.sinks = [SoundDevice(name: "speakers", level: level(50)), SoundDevice(name: "hdmi", level: level(80, muted: true))]
        server.sources = [SoundDevice(name: "mic", level: level(100))]
        server.streams = [SoundStream(index: 7, application: "Firefox", binary: "firefox", level: level(100)),
                          SoundStream(index: 9, application: "mpv", binary: "mpv", level: level(30, muted: true))]
        return server
    }()

    static let buttons = [
        PluginButton(page: 0, index: 0, name: "Mute", command: "mute"),
        PluginButton(page: 0, index: 1, name: "Mic", command: "mute", settings: ["target": .string("input")]),
        PluginButton(page: 0, index: 2, name: "Louder", command: "volume", settings: ["step": .int(10)]),
        PluginButton(page: 1, index: 0, name: "Fox", command: "mute", settings: ["app": .string("FIREFOX")]),
        PluginButton(page: 1, index: 1, name: "HDMI", command: "volume", settings: ["device": .string("hdmi"), "step": .int(-5)]),
    ]

    static func press(_ button: PluginButton, phase: PluginPress.Phase = .tap) -> PluginPress {
        PluginPress(phase: phase, command: button.command, settings: button.settings, button: button.reference, device: nil)
    }

    /// A machine connected to ``server`` with ``buttons`` live.
    static func live() -> SoundState {
        var machine = SoundState()
        _ = machine.handle(.start)
        _ = machine.handle(.buttons(buttons))
        _ = machine.handle(.connected(server, description: "test"))
        return machine
    }

    static func shows(_ actions: [SoundState.Action]) -> [String: SoundFace] {
        var faces: [String: SoundFace] = [:]
        for case .show(let page, let index, let face) in actions { faces["\(page).\(index)"] = face }
        return faces
    }

    @Test func connectsOnceAndShowsEveryButton() {
        var machine = SoundState()
        #expect(machine.handle(.buttons(Self.buttons)).isEmpty, "nothing is shown before the server is known")
        #expect(machine.handle(.start) == [.connect])
        #expect(machine.handle(.start).isEmpty)
        let actions = machine.handle(.connected(Self.server, description: "pulseaudio 16.1"))
        #expect(actions.first == .log(.info, "connected to pulseaudio 16.1"))
        #expect(Self.shows(actions) == [
            "0.0": SoundFace(state: .unmuted, title: nil),
            "0.1": SoundFace(state: .unmuted, title: nil),
            "0.2": SoundFace(state: .unmuted, title: "50%"),
            "1.0": SoundFace(state: .unmuted, title: nil),
            "1.1": SoundFace(state: .muted, title: "80%"),
        ])
        #expect(machine.isLive)
    }

    /// The plugin says `ready` when the first try has ended, either way (SoundPlugin.readyWait).
    @Test func theFirstTryEndsConnectedOrNot() {
        var connected = SoundState()
        #expect(!connected.firstTryEnded)
        _ = connected.handle(.start)
        #expect(!connected.firstTryEnded, "connecting: a press now would find no server yet")
        _ = connected.handle(.connected(Self.server, description: "test"))
        #expect(connected.firstTryEnded)
        var refused = SoundState()
        _ = refused.handle(.start)
        _ = refused.handle(.lost(reason: "Connection refused"))
        #expect(refused.firstTryEnded)
        _ = refused.handle(.reconnectDue)
        #expect(refused.firstTryEnded, "a retry is not the first try")
    }

    @Test func followsTheServerAndSendsOnlyChanges() {
        var machine = Self.live()
        var sinks = Self.server.sinks
        sinks[0].level = Self.level(50, muted: true)
        #expect(Self.shows(machine.handle(.sinks(sinks))) == [
            "0.0": SoundFace(state: .muted, title: nil), "0.2": SoundFace(state: .muted, title: "50%"),
        ])
        #expect(machine.handle(.sinks(sinks)).isEmpty, "the same listing again shows nothing")
        // A flood that ends where it began: every step shows, the last one the first face again.
        for percent in [10, 20, 30] {
            sinks[0].level = Self.level(percent, muted: true)
            #expect(Self.shows(machine.handle(.sinks(sinks))) == ["0.2": SoundFace(state: .muted, title: "\(percent)%")])
        }
        #expect(Self.shows(machine.handle(.defaults(sink: "hdmi", source: "mic"))) == [
            "0.0": SoundFace(state: .muted, title: nil), "0.2": SoundFace(state: .muted, title: "80%"),
        ].filter { $0.key == "0.2" }, "the default output moved to hdmi: its level shows; the mute face is unchanged")
        #expect(Self.shows(machine.handle(.defaults(sink: "gone", source: "mic"))) == [
            "0.0": SoundFace(state: .away, title: SoundFace.noDeviceTitle),
            "0.2": SoundFace(state: .away, title: SoundFace.noDeviceTitle),
        ])
        #expect(Self.shows(machine.handle(.streams([]))) == ["1.0": SoundFace(state: .away, title: SoundFace.noStreamTitle)])
    }

    @Test func muteTogglesAndASecondPressTogglesBack() {
        var machine = Self.live()
        let mute = Self.buttons[0]
        let first = machine.handle(.press(Self.press(mute)))
        #expect(first.first == .change(.sink("speakers"), .mute(true)))
        #expect(Self.shows(first)["0.0"] == SoundFace(state: .muted, title: nil), "shown at once, before the server confirms")
        #expect(machine.handle(.press(Self.press(mute, phase: .up))).isEmpty, "the up edge does nothing")
        #expect(machine.handle(.press(Self.press(mute, phase: .down))).first == .change(.sink("speakers"), .mute(false)))
        let mic = machine.handle(.press(Self.press(Self.buttons[1])))
        #expect(mic.first == .change(.source("mic"), .mute(true)))
    }

    @Test func volumeStepsEveryTarget() {
        var machine = Self.live()
        let louder = machine.handle(.press(Self.press(Self.buttons[2])))
        #expect(louder.first == .change(.sink("speakers"), .volume([Self.norm * 60 / 100 + 1, Self.norm * 60 / 100 + 1])))
        #expect(Self.shows(louder)["0.2"] == SoundFace(state: .unmuted, title: "60%"))
        let hdmi = machine.handle(.press(Self.press(Self.buttons[4])))
        #expect(Self.shows(hdmi)["1.1"] == SoundFace(state: .muted, title: "75%"))
    }

    @Test func anAppsStreamsMuteTogether() {
        var machine = Self.live()
        var streams = Self.server.streams
        streams.append(SoundStream(index: 8, application: "Firefox", binary: nil, level: Self.level(40, muted: true)))
        #expect(machine.handle(.streams(streams)).isEmpty, "one of two streams muted: the app is not muted")
        let press = machine.handle(.press(Self.press(Self.buttons[3])))
        #expect(press.filter { if case .change = $0 { true } else { false } } == [.change(.stream(7), .mute(true))],
                "only the unmuted stream needs the call")
        #expect(Self.shows(press)["1.0"] == SoundFace(state: .muted, title: nil))
        #expect(machine.handle(.press(Self.press(Self.buttons[3]))).prefix(2) == [
            .change(.stream(7), .mute(false)), .change(.stream(8), .mute(false)),
        ])
    }

    @Test func losingTheServerShowsAwayAndBacksOff() {
        var machine = Self.live()
        let lost = machine.handle(.lost(reason: "Connection terminated"))
        #expect(lost.first == .log(.warning, "the sound server is not available: Connection terminated; trying again in 100 ms"))
        #expect(lost.contains(.reconnect(after: .milliseconds(100))))
        let faces = Self.shows(lost)
        #expect(faces.count == Self.buttons.count)
        #expect(faces.values.allSatisfy { $0 == SoundFace(state: .away, title: SoundFace.noServerTitle) })
        #expect(machine.handle(.lost(reason: "again")).isEmpty, "a second report of one loss changes nothing")
        #expect(machine.handle(.sinks(Self.server.sinks)).isEmpty, "stale listings while away are ignored")
        // Failing tries double the wait, one debug line each, and the faces stay as they are.
        var delays: [Duration] = []
        for _ in 0..<8 {
            #expect(machine.handle(.reconnectDue) == [.connect])
            let failed = machine.handle(.lost(reason: "Connection refused"))
            #expect(failed.count == 2)
            if case .log(let level, _) = failed[0] { #expect(level == .debug) }
            for case .reconnect(let delay) in failed { delays.append(delay) }
        }
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600),
                           .milliseconds(3200), .seconds(5), .seconds(5), .seconds(5)])
        #expect(machine.handle(.reconnectDue) == [.connect])
        let back = machine.handle(.connected(Self.server, description: "again"))
        #expect(Self.shows(back)["0.2"] == SoundFace(state: .unmuted, title: "50%"))
        #expect(machine.handle(.lost(reason: "x")).contains(.reconnect(after: .milliseconds(100))), "a new outage starts over")
    }

    @Test func pressesThatCannotWorkSayWhy() {
        var machine = Self.live()
        let bad = PluginButton(page: 2, index: 3, name: "Bad", command: "volume", settings: ["step": .string("loud")])
        let took = machine.handle(.buttons(Self.buttons + [bad]))
        #expect(took.first == .log(.warning, "button 'Bad' at 2/3: bad settings: step must be a whole number of percent points, such as 5 or -5"))
        #expect(Self.shows(took)["2.3"] == SoundFace(state: nil, title: SoundFace.badSettingsTitle))
        #expect(Self.shows(took).count == Self.buttons.count + 1, "a new buttons list shows every face again")
        #expect(!machine.handle(.buttons(Self.buttons + [bad])).contains { if case .log = $0 { true } else { false } },
                "the same bad button is logged once, not on every list")
        #expect(machine.handle(.press(Self.press(bad))) == [
            .log(.warning, "button 'Bad' at 2/3: bad settings: step must be a whole number of percent points, such as 5 or -5; the press does nothing"),
            .alert(page: 2, index: 3),
        ])
        _ = machine.handle(.streams([]))
        #expect(machine.handle(.press(Self.press(Self.buttons[3]))) == [
            .log(.warning, "button 'Fox' at 1/0: 'FIREFOX' plays nothing now; the press does nothing"), .alert(page: 1, index: 0),
        ])
        _ = machine.handle(.lost(reason: "gone"))
        #expect(machine.handle(.press(Self.press(Self.buttons[0]))) == [
            .log(.warning, "button 'Mute' at 0/0: no sound server now; the press does nothing"), .alert(page: 0, index: 0),
        ])
        var refused = Self.live()
        #expect(refused.handle(.changeFailed(.sink("speakers"), reason: "Access denied")) == [
            .log(.warning, "the server refused a change of sink 'speakers': Access denied"), .refresh,
        ])
    }
}
