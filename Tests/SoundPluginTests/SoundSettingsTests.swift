import DeckModel
import SoundPlugin
import Testing

/// Reading a button's command and settings.
@Suite struct SoundSettingsTests {
    struct Good: Sendable, CustomTestStringConvertible {
        var command: String
        var settings: [String: DeckValue]
        var binding: SoundBinding
        var testDescription: String { "\(command) \(settings)" }
    }

    static let good: [Good] = [
        Good(command: "mute", settings: [:], binding: SoundBinding(command: .mute, control: .defaultOutput)),
        Good(command: "mute", settings: ["target": .string("output")], binding: SoundBinding(command: .mute, control: .defaultOutput)),
        Good(command: "mute", settings: ["target": .string("input")], binding: SoundBinding(command: .mute, control: .defaultInput)),
        Good(command: "mute", settings: ["device": .string("deck_out")], binding: SoundBinding(command: .mute, control: .sink("deck_out"))),
        Good(command: "mute", settings: ["target": .string("input"), "device": .string("mic")],
             binding: SoundBinding(command: .mute, control: .source("mic"))),
        Good(command: "mute", settings: ["app": .string("firefox")], binding: SoundBinding(command: .mute, control: .app("firefox"))),
        Good(command: "volume", settings: [:], binding: SoundBinding(command: .volume, control: .defaultOutput, step: 5)),
        Good(command: "volume", settings: ["step": .int(-10)], binding: SoundBinding(command: .volume, control: .defaultOutput, step: -10)),
        Good(command: "volume", settings: ["step": .double(3.0), "app": .string("mpv")],
             binding: SoundBinding(command: .volume, control: .app("mpv"), step: 3)),
        Good(command: "volume", settings: ["step": .int(100), "target": .string("input")],
             binding: SoundBinding(command: .volume, control: .defaultInput, step: 100)),
    ]

    @Test(arguments: good) func reads(_ fixture: Good) throws {
        #expect(try SoundBinding.parse(command: fixture.command, settings: fixture.settings) == fixture.binding)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var command: String
        var settings: [String: DeckValue]
        /// A part of the message that tells the user what to fix.
        var says: String
        var testDescription: String { "\(command) \(settings)" }
    }

    static let bad: [Bad] = [
        Bad(command: "louder", settings: [:], says: "unknown command 'louder' (expected mute or volume)"),
        Bad(command: "mute", settings: ["step": .int(5)], says: "unknown setting 'step' (mute takes app, device, target)"),
        Bad(command: "volume", settings: ["steps": .int(5)], says: "unknown setting 'steps'"),
        Bad(command: "mute", settings: ["target": .string("speakers")], says: "target must be output or input"),
        Bad(command: "mute", settings: ["target": .int(1)], says: "target must be output or input"),
        Bad(command: "mute", settings: ["device": .string("x"), "app": .string("y")], says: "give device or app, not both"),
        Bad(command: "mute", settings: ["device": .string("")], says: "device must be a device name"),
        Bad(command: "mute", settings: ["device": .int(3)], says: "device must be a device name"),
        Bad(command: "mute", settings: ["app": .null], says: "app must be an application name"),
        Bad(command: "mute", settings: ["app": .string("obs"), "target": .string("input")], says: "app controls playback streams"),
        Bad(command: "volume", settings: ["step": .int(0)], says: "not 0 (it is 0)"),
        Bad(command: "volume", settings: ["step": .int(101)], says: "between -100 and 100"),
        Bad(command: "volume", settings: ["step": .double(2.5)], says: "step must be a whole number"),
        Bad(command: "volume", settings: ["step": .string("up")], says: "step must be a whole number"),
    ]

    @Test(arguments: bad) func refuses(_ fixture: Bad) {
        #expect(throws: SoundError.self) { try SoundBinding.parse(command: fixture.command, settings: fixture.settings) }
        do {
            _ = try SoundBinding.parse(command: fixture.command, settings: fixture.settings)
        } catch {
            #expect(error.description.hasPrefix("bad settings: "))
            #expect(error.description.contains(fixture.says), "\(error)")
        }
    }
}

/// Percentages and volume steps on raw libpulse volumes.
@Suite struct SoundLevelTests {
    private let norm = SoundLevel.normal

    @Test func percentIsTheRoundedAverage() {
        #expect(SoundLevel(muted: false, channels: [norm, norm]).percent == 100)
        #expect(SoundLevel(muted: false, channels: [norm / 2, norm / 2]).percent == 50)
        #expect(SoundLevel(muted: false, channels: [norm, 0]).percent == 50)
        #expect(SoundLevel(muted: false, channels: [norm * 3 / 2]).percent == 150)
        #expect(SoundLevel(muted: false, channels: []).percent == 0)
    }

    @Test func stepsMoveTheAverageAndKeepTheBalance() {
        let balanced = SoundLevel(muted: false, channels: [norm / 2, norm / 2])
        #expect(SoundLevel(muted: false, channels: balanced.stepped(by: 10)).percent == 60)
        #expect(SoundLevel(muted: false, channels: balanced.stepped(by: -10)).percent == 40)
        let leaning = SoundLevel(muted: false, channels: [norm / 2, norm / 4])
        let louder = leaning.stepped(by: 15)
        #expect(SoundLevel(muted: false, channels: louder).percent == 53)
        #expect(louder[0] == louder[1] * 2, "the left channel stays twice the right")
    }

    @Test func stepsStopAtTheEnds() {
        #expect(SoundLevel(muted: false, channels: [norm * 97 / 100]).stepped(by: 5) == [norm])
        #expect(SoundLevel(muted: false, channels: [norm]).stepped(by: 5) == [norm], "never above 100 % by a press")
        let boosted = SoundLevel(muted: false, channels: [norm * 3 / 2])
        #expect(boosted.stepped(by: 5) == boosted.channels, "a level above 100 % is not raised and not cut")
        #expect(SoundLevel(muted: false, channels: [norm * 3 / 2]).stepped(by: -10).first.map { Int($0) } == Int(norm) * 140 / 100)
        #expect(SoundLevel(muted: false, channels: [norm * 3 / 100]).stepped(by: -5) == [0])
        #expect(SoundLevel(muted: false, channels: [0, 0]).stepped(by: 20) == [norm / 5, norm / 5], "from silence: even channels")
    }
}
