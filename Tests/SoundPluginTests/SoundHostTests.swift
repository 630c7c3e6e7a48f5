import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// The sound plugin as a user runs it: a real deckd serving the repository's
/// `plugins/sound` (its manifest and launcher), a real pulseaudio, and a
/// level-8 device that presses buttons and reads their faces.
@Suite struct SoundHostTests {
    static let repositoryPlugins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("plugins").path

    static let profile = """
        pages:
          - buttons:
              0:
                name: Mic
                action: {plugin: sound, command: mute, settings: {target: input}}
                states: [{id: unmuted}, {id: muted, name: "Mic off", style: {background: red}}, {id: away}]
              1:
                name: Vol
                action: {plugin: sound, command: volume, settings: {step: -10}}
                states: [{id: unmuted}, {id: muted}, {id: away}]
        """

    /// The faces a device knows: its welcome's, then every `buttonFace`.
    final class Faces {
        let device: HostClient
        var faces: [String: ButtonFace] = [:]

        init(_ device: HostClient) {
            self.device = device
            for face in device.welcome?.faces ?? [] { faces["\(face.page).\(face.index)"] = face }
        }

        func face(_ page: Int, _ index: Int) -> ButtonFace? { faces["\(page).\(index)"] }

        /// The state id showing: the host sends state 0 (here `unmuted`, the first declared) as null.
        func state(_ page: Int, _ index: Int) -> String { face(page, index)?.state ?? "unmuted" }

        /// Reads until `condition` holds; false after `timeout`.
        func wait(timeout: Duration = .seconds(10), _ condition: (Faces) -> Bool) -> Bool {
            let deadline = ContinuousClock.now + timeout
            while !condition(self) {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero, let message = try? device.next(timeout: left) else { return false }
                if case .buttonFace(let face) = message { faces["\(face.page).\(face.index)"] = face }
            }
            return true
        }
    }

    /// A private pulseaudio, and a deckd serving ``profile`` with this repository's plugins.
    static func started() throws -> (PulseServer, HostProcess) {
        let server = try PulseServer()
        try server.start()
        let host = try HostProcess(files: ["default.yaml": Self.profile])
        // deckd hands its environment to its plugins: the private server's, not the user's.
        host.launcher = ["/usr/bin/env"] + server.environment.filter { $0.key != "PATH" }.map { "\($0.key)=\($0.value)" }.sorted()
        try host.start(extra: ["--plugins", Self.repositoryPlugins])
        return (server, host)
    }

    @Test func aMicButtonOnARealDeckd() throws {
        let (server, host) = try Self.started()
        let device = try host.device("phone", level: 8)
        let faces = Faces(device)
        #expect(faces.wait { $0.face(0, 0) == nil && $0.face(0, 1)?.title == "100%" }, "\(faces.faces) \(host.log)")

        try server.pactl("set-source-mute", "deck_in", "1")
        #expect(faces.wait { $0.state(0, 0) == "muted" }, "a change from outside reaches the device")

        _ = try device.request(.press(page: 0, index: 0, button: nil, phase: .tap))
        #expect(faces.wait { $0.state(0, 0) == "unmuted" })
        #expect(try server.pactl("get-source-mute", "deck_in") == "Mute: no\n", "the press unmuted the microphone")
        _ = try device.request(.press(page: 0, index: 1, button: nil, phase: .tap))
        #expect(faces.wait { $0.face(0, 1)?.title == "90%" })
        #expect(try server.pactl("get-sink-volume", "deck_out").contains("/  90% /"))

        server.stop()
        #expect(faces.wait { $0.face(0, 0) == ButtonFace(page: 0, index: 0, title: "no server", state: "away") })
        try server.start()
        #expect(faces.wait { $0.face(0, 0) == ButtonFace(page: 0, index: 0) && $0.face(0, 1)?.title == "100%" },
                "\(faces.faces)")
        // A device that connects now sees the faces in its welcome.
        let later = try host.device("tablet", level: 8)
        #expect(later.welcome?.faces.contains(ButtonFace(page: 0, index: 1, title: "100%")) == true)
        #expect(!host.log.contains("has no state"), "every state the plugin sets is declared: \(host.log)")
    }

    /// The host holds a press while its plugin restarts and delivers it after
    /// `ready`; the plugin says `ready` once it has reached the server, so the
    /// press is done, not refused with "no sound server now" (an audit's finding).
    @Test func aPressHeldAcrossARestartReachesTheServer() throws {
        let (server, host) = try Self.started()
        let device = try host.device("phone", level: 8)
        let faces = Faces(device)
        try server.pactl("set-source-mute", "deck_in", "1")
        #expect(faces.wait { $0.state(0, 0) == "muted" }, "\(faces.faces) \(host.log)")
        guard let pid = startedPIDs(in: host.log, after: "plugin 'sound'").last else {
            Issue.record("no pid of the sound plugin in the log: \(host.log)")
            return
        }
        kill(pid, SIGKILL)
        // Pressed once the host knows: before that the press may go to the dying process's pipe.
        #expect(host.waitForLog("plugin 'sound' was ended by signal 9; starting it again in 1 s"), "\(host.log)")
        _ = try device.request(.press(page: 0, index: 0, button: nil, phase: .tap))
        #expect(host.waitForLog("'Mic' (plugin) was delivered to its plugin"), "\(host.log)")
        // The server is the truth: polled, since nothing tells a test when pulseaudio applied it.
        let deadline = ContinuousClock.now + .seconds(10)
        while try server.pactl("get-source-mute", "deck_in") != "Mute: no\n", ContinuousClock.now < deadline {
            usleep(20_000)
        }
        let sources = (try? server.pactl("list", "sources")) ?? ""
        #expect(try server.pactl("get-source-mute", "deck_in") == "Mute: no\n", "the held press unmuted the microphone: \(host.log) \(faces.faces) \(sources)")
        #expect(!host.log.contains("no sound server now"), "\(host.log)")
    }
}
