import DeckModel
import DeckProtocol
@testable import DeckControl
import DeckTestSupport
import Foundation
import Testing

/// docs/faces.md §3, §5: a plugin's `for` targets and images, `deckctl face`,
/// and `deckctl show` drawing states and colours, against a real deckd.
@Suite("faces: deckctl face, show, and a plugin's face messages")
struct FaceCommandTests {
    /// On `buttons`: every mute button to `muted` by a `for` target, an
    /// image on the first one, an unknown state (refused, logged) and an alert.
    static let muter = """
        #!/usr/bin/env python3
        import json, sys, base64
        png = base64.b64encode(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(32)).decode()
        for line in sys.stdin:
            event = json.loads(line)
            if event.get("event") == "hello":
                print(json.dumps({"type": "ready"}), flush=True)
            elif event.get("event") == "buttons":
                out = lambda m: print(json.dumps(m), flush=True)
                out({"type": "setState", "for": {"command": "mute", "settings": {"target": "input"}}, "state": "muted"})
                out({"type": "setImage", "page": 0, "index": 0, "image": png})
                out({"type": "setState", "for": {"command": "mute"}, "state": "exploded"})
                out({"type": "showAlert", "for": {"command": "mute"}})
            elif event.get("event") == "shutdown":
                sys.exit(0)
        """

    static let profile = """
        pages:
          - buttons:
              0:
                name: Mic
                style: {color: white, background: green}
                action: {plugin: muter, command: mute, settings: {target: input, card: 1}}
                states: [{id: live}, {id: muted, name: Mic off, style: {background: red}}]
              1: {name: Other mic, action: {plugin: muter, command: mute, settings: {target: output}}, states: [{id: live}, {id: muted}]}
              2: {name: Backup, action: {run: "true"}, states: [{id: ok}, {id: failed, name: Backup failed}]}
        """

    @Test func pluginFacesDeckctlFaceAndShow() throws {
        let host = try HostProcess(files: ["default.yaml": Self.profile])
        let folder = host.root.path + "/plugins/muter"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.muter.utf8).write(to: URL(fileURLWithPath: folder + "/plugin"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/plugin")
        try Data("id: muter\nexec: [./plugin]\n".utf8).write(to: URL(fileURLWithPath: folder + "/plugin.yaml"))
        try host.start()
        #expect(host.waitForLog("plugin 'muter': button 'Mic' at 0/0 has no state 'exploded' (its states are live, muted)"))
        let deckctl = try BuiltProducts.path("deckctl")
        let deck = { (arguments: [String]) throws -> ProcessRun in try ProcessRun.run(deckctl, ["--control", host.control] + arguments) }

        var show: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            show = try deck(["show", "0"]).outLines
            if show.contains(where: { $0.contains("Mic off") }) { break }
            usleep(100_000)
        }
        #expect(show.contains { $0.contains("│ Mic off") }, "\(show)")
        #expect(show.contains { $0.contains("[muted red image]") }, "the state, its colour in words, the image: \(show)")
        #expect(show.contains { $0.contains("│ Other mic") }, "the output mute button was not matched")

        let set = try deck(["face", "0", "2", "--state", "failed"])
        #expect(set.status == 0 && set.outLines == ["'Backup' at 0/2 shows state failed"], "\(set.err)")
        #expect(try deck(["show", "0"]).outLines.contains { $0.contains("│ Backup failed") })
        let unknown = try deck(["face", "0", "2", "--state", "exploded"])
        #expect(unknown.status == 1 && unknown.err.contains("notFound") && unknown.err.contains("its states are ok, failed"), "\(unknown.err)")
        let titled = try deck(["face", "0", "2", "--title", "Backup: 02:10"])
        #expect(titled.status == 0 && titled.outLines == ["'Backup' at 0/2 shows 'Backup: 02:10'"])
        #expect(try deck(["face", "0", "2", "--clear"]).status == 0)
        #expect(try deck(["show", "0"]).outLines.contains { $0.contains("[ok] run true") })
        let usage = try deck(["face", "0", "2"])
        #expect(usage.status == 2, "one of --state, --title, --clear is required: \(usage.err)")
        #expect(try deck(["face", "0", "2", "--state", "a", "--clear"]).status == 2)
        #expect(try deck(["face", "0", "9", "--title", "x"]).status == 1)
        _ = try host.stop()
    }

    @Test func showPaintsColoursOnATerminal() throws {
        let mic = DeckButton(name: "Mic", action: .run(command: "x"), style: ButtonStyle(color: DeckColor("white"), background: DeckColor("green")),
                             states: [ButtonState(id: "live"), ButtonState(id: "muted", name: "Mic off", style: ButtonStyle(background: DeckColor("#f00")))])
        var picture = LayoutPicture(layout: try DeckLayout(slotsPerPage: 3, pages: [DeckPage(buttons: [mic, nil, nil])]),
                                    profile: "p", revision: 1, locked: false)
        let slot = DeckSlot(page: 0, index: 0)
        #expect(picture.cell(mic, at: slot, width: 22) == ["Mic", "[live green] run x"])
        picture.faces[slot] = ButtonFace(page: 0, index: 0, state: "muted")
        #expect(picture.cell(mic, at: slot, width: 22) == ["Mic off", "[muted #f00] run x"])
        picture.colours = true
        let painted = picture.cell(mic, at: slot, width: 10)
        #expect(painted[0] == "\u{1B}[38;2;255;255;255;48;2;255;0;0mMic off   \u{1B}[0m")
        #expect(painted[1] == "[muted] r…")
    }
}
