import DeckTestSupport
import Foundation
import Testing

/// The real plugin binary against a real PulseAudio daemon that each test
/// starts in its own private folder (``PulseServer``), changed from outside
/// with `pactl`, `pacmd` and `pacat`. The test speaks the plugin protocol
/// itself (``PluginPipe``) and reads back every change with `pactl`.
@Suite(.serialized) struct PulseTests {
    typealias Face = PluginPipe.Face

    static var buttons: [(page: Int, index: Int, name: String, command: String, settings: [String: Any])] {
        [
            (0, 0, "Mic", "mute", ["target": "input"]),
            (0, 1, "Quieter", "volume", ["step": -10]),
            (0, 2, "Mute", "mute", [:]),
            (0, 3, "Out", "volume", ["device": "deck_out", "step": 5]),
        ]
    }

    /// The plugin, started against `server` with the buttons above.
    static func plugin(_ server: PulseServer, environment extra: [String: String] = [:],
                       buttons: [(page: Int, index: Int, name: String, command: String, settings: [String: Any])] = buttons)
        throws -> PluginPipe {
        let plugin = try PluginPipe(executable: try BuiltProducts.path("deck-plugin-sound"),
                                    environment: server.environment.merging(extra) { $1 },
                                    stderrPath: server.root.path + "/plugin.stderr")
        try plugin.hello(plugin: "sound")
        try plugin.buttons(buttons)
        return plugin
    }

    static func press(_ plugin: PluginPipe, _ number: Int) throws {
        let button = buttons[number]
        try plugin.press(page: button.page, index: button.index, name: button.name, command: button.command,
                         settings: button.settings)
    }

    @Test func followsPactlAndPressesReachTheServer() throws {
        let server = try PulseServer()
        try server.start()
        let plugin = try Self.plugin(server)
        #expect(plugin.read(until: { $0.face(0, 0) == Face(state: "unmuted", title: nil) && $0.face(0, 1)?.title == "100%" }),
                "\(plugin.faces) \(plugin.logs)")
        #expect(plugin.logs.contains { $0.hasPrefix("connected to pulseaudio ") && $0.contains(server.socket) })

        try server.pactl("set-source-mute", "deck_in", "1")
        #expect(plugin.read(until: { $0.face(0, 0) == Face(state: "muted", title: nil) }), "\(plugin.faces)")
        try server.pactl("set-sink-volume", "deck_out", "40%")
        #expect(plugin.read(until: { $0.face(0, 1) == Face(state: "unmuted", title: "40%") && $0.face(0, 3)?.title == "40%" }))

        try Self.press(plugin, 2)
        #expect(plugin.read(until: { $0.face(0, 2)?.state == "muted" && $0.face(0, 1)?.state == "muted" }))
        #expect(try server.pactl("get-sink-mute", "deck_out") == "Mute: yes\n")
        try Self.press(plugin, 0)
        #expect(plugin.read(until: { $0.face(0, 0)?.state == "unmuted" }))
        #expect(try server.pactl("get-source-mute", "deck_in") == "Mute: no\n")
        try Self.press(plugin, 1)
        #expect(plugin.read(until: { $0.face(0, 1)?.title == "30%" }))
        #expect(try server.pactl("get-sink-volume", "deck_out").contains("/  30% /"))
        #expect(plugin.strange.isEmpty, "\(plugin.strange)")
        #expect(plugin.shutdown() && plugin.exitStatus == 0,
                "exit \(plugin.exitStatus): \((try? String(contentsOfFile: server.root.path + "/plugin.stderr", encoding: .utf8)) ?? "")")
    }

    @Test func followsTheDefaultDevice() throws {
        let server = try PulseServer()
        try server.start()
        let plugin = try Self.plugin(server)
        #expect(plugin.read(until: { $0.face(0, 1)?.title == "100%" }))
        let module = try server.pactl("load-module", "module-null-sink", "sink_name=second")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try server.pactl("set-sink-volume", "second", "25%")
        try server.pactl("set-sink-mute", "second", "1")
        try server.pactl("set-default-sink", "second")
        #expect(plugin.read(until: { $0.face(0, 1) == Face(state: "muted", title: "25%") && $0.face(0, 2)?.state == "muted" }),
                "\(plugin.faces)")
        #expect(plugin.face(0, 3) == Face(state: "unmuted", title: "100%"), "a named device stays on its device")
        try server.pactl("unload-module", module)
        #expect(plugin.read(until: { $0.face(0, 1) == Face(state: "unmuted", title: "100%") }),
                "the server falls back to deck_out, and so does the button: \(plugin.faces)")
        try server.pactl("set-default-source", "deck_out.monitor")
        try server.pactl("set-source-mute", "deck_out.monitor", "1")
        #expect(plugin.read(until: { $0.face(0, 0)?.state == "muted" }), "the input follows the default source")
        #expect(plugin.shutdown())
    }

    @Test func reconnectsWhenTheServerRestarts() throws {
        let server = try PulseServer()
        try server.start()
        let plugin = try Self.plugin(server)
        #expect(plugin.read(until: { $0.face(0, 2)?.state == "unmuted" }))
        server.stop()
        let away = Face(state: "away", title: "no server")
        #expect(plugin.read(until: { plugin in Self.buttons.allSatisfy { plugin.face($0.page, $0.index) == away } }),
                "\(plugin.faces)")
        #expect(plugin.logs.contains { $0.hasPrefix("the sound server is not available: ") && $0.contains("trying again in 100 ms") },
                "\(plugin.logs)")
        try Self.press(plugin, 2)
        #expect(plugin.read(until: { $0.alerts == ["0.2"] }), "a press while away flashes and says why")
        #expect(plugin.logs.contains("button 'Mute' at 0/2: no sound server now; the press does nothing"))

        try server.start()
        #expect(plugin.read(until: { $0.face(0, 2) == Face(state: "unmuted", title: nil) && $0.face(0, 1)?.title == "100%" }),
                "\(plugin.faces) \(plugin.logs)")
        try Self.press(plugin, 2)
        #expect(plugin.read(until: { $0.face(0, 2)?.state == "muted" }))
        #expect(try server.pactl("get-sink-mute", "deck_out") == "Mute: yes\n", "the new connection changes the new server")
        #expect(plugin.shutdown())
    }

    @Test func controlsOneApplicationsStreams() throws {
        let server = try PulseServer()
        try server.start()
        let buttons: [(page: Int, index: Int, name: String, command: String, settings: [String: Any])] = [
            (0, 0, "App", "mute", ["app": "deck-test-app"]),
            (0, 1, "App vol", "volume", ["app": "pacat", "step": -20]),
            (0, 2, "Other", "mute", ["app": "firefox"]),
        ]
        let plugin = try Self.plugin(server, buttons: buttons)
        #expect(plugin.read(until: { $0.face(0, 0) == Face(state: "away", title: "not playing") }), "\(plugin.faces)")
        let stream = try server.playStream(application: "deck-test-app")
        defer { server.endStream(stream) }
        #expect(plugin.read(until: { $0.face(0, 0) == Face(state: "unmuted", title: nil) && $0.face(0, 1)?.title == "100%" }),
                "the stream is found by application.name and by its binary: \(plugin.faces)")
        #expect(plugin.face(0, 2) == Face(state: "away", title: "not playing"))

        try plugin.press(page: 0, index: 0, name: "App", command: "mute", settings: buttons[0].settings)
        #expect(plugin.read(until: { $0.face(0, 0)?.state == "muted" }))
        #expect(try server.sinkInputs().contains("Mute: yes"))
        try plugin.press(page: 0, index: 1, name: "App vol", command: "volume", settings: buttons[1].settings)
        #expect(plugin.read(until: { $0.face(0, 1)?.title == "80%" }))
        #expect(try server.sinkInputs().contains("/  80% /"))

        let index = try #require(try server.sinkInputs().split(separator: "\n").first { $0.hasPrefix("Sink Input #") }?
            .dropFirst("Sink Input #".count))
        try server.pactl("set-sink-input-mute", String(index), "0")
        #expect(plugin.read(until: { $0.face(0, 0)?.state == "unmuted" }), "a change from outside shows")
        server.endStream(stream)
        #expect(plugin.read(until: { $0.face(0, 0) == Face(state: "away", title: "not playing") }))
        #expect(plugin.shutdown())
    }

    /// 400 changes from outside in a fraction of a second: the faces end on
    /// the server's final state, and the plugin sends no more face messages
    /// than there were changes (it coalesces; nothing queues up).
    @Test func aFloodOfChangesEndsOnTheFinalState() throws {
        let server = try PulseServer()
        try server.start()
        let plugin = try Self.plugin(server)
        // The first faces wait for the plugin's start and its first query: a
        // bound, not a pause, kept wide for a machine busy with other suites.
        #expect(plugin.read(until: { $0.face(0, 3)?.title == "100%" }, timeout: .seconds(30)), "\(plugin.diagnosis)")
        let before = plugin.faceMessages
        var commands: [String] = []
        for step in 0..<200 {
            commands.append("set-sink-volume deck_out \(0x10000 * (step % 90 + 5) / 100)")
            commands.append("set-source-mute deck_in \(step % 2)")
        }
        commands.append("set-sink-volume deck_out \(0x10000 * 37 / 100)")
        commands.append("set-sink-mute deck_out 1")
        let started = ContinuousClock.now
        try server.pacmd(commands)
        let flooded = ContinuousClock.now - started
        #expect(plugin.read(until: { plugin in
            plugin.face(0, 1) == Face(state: "muted", title: "37%") && plugin.face(0, 3) == Face(state: "muted", title: "37%")
                && plugin.face(0, 0)?.state == "muted" && plugin.face(0, 2)?.state == "muted"
        }), "\(plugin.diagnosis)")
        #expect(try server.pactl("get-sink-volume", "deck_out").contains("/  37% /"))
        // Four buttons, two lines per face: at most eight lines per change, and in practice far fewer.
        #expect(plugin.faceMessages - before <= commands.count * 8, "\(plugin.faceMessages - before) face messages")
        print("flood: \(commands.count) changes in \(flooded), \(plugin.faceMessages - before) face messages")
        #expect(plugin.shutdown())
    }

    @Test func aServerThatRefusesShowsAwayAndSaysWhy() throws {
        let port = try Self.freePort()
        let server = try PulseServer(extraModules: [
            "module-native-protocol-tcp listen=127.0.0.1 port=\(port) auth-anonymous=0 auth-cookie-enabled=1",
        ])
        try server.start()
        // Over TCP there are no unix credentials: a client without the server's cookie is refused.
        let stranger = server.root.path + "/stranger"
        try FileManager.default.createDirectory(atPath: stranger, withIntermediateDirectories: true)
        let plugin = try Self.plugin(server, environment: ["PULSE_SERVER": "tcp:127.0.0.1:\(port)", "HOME": stranger])
        #expect(plugin.read(until: { $0.face(0, 0) == Face(state: "away", title: "no server") }), "\(plugin.faces)")
        #expect(plugin.logs.contains { $0.hasPrefix("the sound server is not available: Access denied; trying again in ") },
                "\(plugin.logs)")
        #expect(plugin.shutdown(within: .seconds(3)), "nothing is stuck: the plugin ends at once")
    }

    @Test func noServerAtAll() throws {
        let server = try PulseServer()  // never started
        let plugin = try Self.plugin(server)
        #expect(plugin.read(until: { $0.face(0, 2) == Face(state: "away", title: "no server") }), "\(plugin.faces)")
        #expect(plugin.logs.contains { $0.hasPrefix("the sound server is not available: ") }, "\(plugin.logs)")
        try Self.press(plugin, 0)
        #expect(plugin.read(until: { $0.alerts == ["0.0"] }))
        try server.start()
        #expect(plugin.read(until: { $0.face(0, 2) == Face(state: "unmuted", title: nil) }), "a server that comes later is found")
        #expect(plugin.shutdown(within: .seconds(3)))
    }

    /// A free TCP port on the loopback (bound, read, closed; the server binds it next).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
