import DeckDBus
import DeckModel
@testable import MediaPlugin
import Testing

/// A media button's command and settings, checked before anything is called.
@Suite struct MediaCommandTests {
    @Test(arguments: [
        ("play-pause", [String: DeckValue](), "PlayPause", [DBusValue]()),
        ("next", [:], "Next", []),
        ("previous", ["player": .string("any")], "Previous", []),
        ("stop", ["player": .string("vlc")], "Stop", []),
        ("seek", ["seconds": .int(10)], "Seek", [.int64(10_000_000)]),
        ("seek", ["seconds": .double(-2.5)], "Seek", [.int64(-2_500_000)]),
    ])
    func goodCommandsCallTheirMethod(command: String, settings: [String: DeckValue], member: String, arguments: [DBusValue]) throws {
        let parsed = try MediaCommand(command: command, settings: settings)
        #expect(parsed.call.member == member)
        #expect(parsed.call.arguments == arguments)
    }

    @Test(arguments: [
        ("pause", [String: DeckValue](), "unknown command 'pause' (expected play-pause, next, previous, stop, seek)"),
        ("seek", [:], "seek needs settings.seconds (a number of seconds, negative to go back)"),
        ("seek", ["seconds": .string("10")], "settings.seconds must be a number of seconds, not \"10\""),
        ("seek", ["seconds": .int(0)], "settings.seconds must be a non-zero number from -3600 to 3600, not 0.0"),
        ("seek", ["seconds": .int(7200)], "settings.seconds must be a non-zero number from -3600 to 3600, not 7200.0"),
        ("next", ["seconds": .int(5)], "settings.seconds is for seek only"),
        ("next", ["player": .int(5)], "settings.player must be any or a player's MPRIS name such as mpv or vlc, not 5"),
        ("next", ["player": .string("a b")], "settings.player must be any or a player's MPRIS name such as mpv or vlc, not \"a b\""),
        ("next", ["volume": .int(5)], "unknown setting 'volume' (media buttons take player, and seek also seconds)"),
    ])
    func badCommandsAreASentenceNamingTheSetting(command: String, settings: [String: DeckValue], message: String) {
        #expect(throws: MediaError(message)) { try MediaCommand(command: command, settings: settings) }
    }

    @Test func aNamedPlayerMatchesItsNameAndItsInstancesOnly() {
        var state = MediaState()
        _ = state.handle(.connected)
        for (name, owner) in [("org.mpris.MediaPlayer2.vlc.instance7", ":1.1"), ("org.mpris.MediaPlayer2.vlcx", ":1.2")] {
            _ = state.handle(.owner(name: name, owner: owner))
        }
        #expect(state.player(for: .named("vlc")) == "org.mpris.MediaPlayer2.vlc.instance7")
        #expect(state.player(for: .named("mpv")) == nil)
        #expect(state.player(for: .any) == "org.mpris.MediaPlayer2.vlcx")  // the newer
    }
}
