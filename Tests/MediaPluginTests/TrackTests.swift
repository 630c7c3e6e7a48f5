@testable import MediaPlugin
import DeckDBus
import Testing

/// `Metadata` turned into what a button shows, with bad fields reported.
@Suite struct TrackTests {
    @Test func aLongTitleIsCutWithAnEllipsisAndControlCharactersBecomeSpaces() {
        let long = String(repeating: "가", count: 500)
        let track = Track(metadata: .dictionary(["xesam:title": .string(long, truncated: false)], truncated: false))
        #expect(track.title == String(repeating: "가", count: Track.titleCharacters - 1) + "…")
        #expect(Track.shortened("  A\nB\t ", cut: false) == "A B")
        #expect(Track.shortened("short", cut: true) == "short…")  // the reader already cut it
        #expect(Track.shortened(" \n ", cut: false) == nil)
    }

    @Test func wrongTypesAreProblemsNotValues() {
        #expect(Track(metadata: .int32(1)).problems == ["Metadata is an integer, not a dictionary"])
        let track = Track(metadata: .dictionary(["mpris:artUrl": .string("x", truncated: true)], truncated: false))
        #expect(track.artURL == nil)
        #expect(track.problems == ["mpris:artUrl is longer than \(DBusLimits.standard.stringBytes) bytes"])
    }

    @Test func routingAcceptsOnlyWellFormedSignalsFromTheRightSender() {
        let owner = DBusMessage(kind: .signal, sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                body: [.string("org.mpris.MediaPlayer2.mpv", truncated: false), .string("", truncated: false),
                                       .string(":1.4", truncated: false)])
        #expect(MediaState.input(for: owner, request: nil).input == .owner(name: "org.mpris.MediaPlayer2.mpv", owner: ":1.4"))
        var spoofed = owner
        spoofed.sender = ":1.9"
        #expect(MediaState.input(for: spoofed, request: nil).input == nil)
        var short = owner
        short.body.removeLast()
        #expect(MediaState.input(for: short, request: nil).input == nil)
        let error = DBusMessage(kind: .error(cookie: 3, name: "org.freedesktop.DBus.Error.NoReply", message: "timed out"))
        #expect(MediaState.input(for: error, request: .call(player: "org.mpris.MediaPlayer2.mpv", member: "Next", slot: MediaState.Slot(page: 0, index: 0))).log
            == "Next on org.mpris.MediaPlayer2.mpv failed (org.freedesktop.DBus.Error.NoReply: timed out)")
    }
}
