import DeckTestSupport
import Foundation
import Synchronization

/// The sound plugin's latency (issue 26): a `pactl` change → the plugin's
/// face for it, against `pactl subscribe`'s own delivery of the same event
/// (the floor: the server's event path to a client, with nothing on top).
/// Both clocks start just before the same `pactl set-sink-volume` runs, so
/// its process start is in both and the ratio is what the plugin adds.
extension Bench {
    func measureSound() throws {
        let plugin = productsFolder + "/deck-plugin-sound"
        let title = "sound: pactl change → button face (p99)"
        guard FileManager.default.isExecutableFile(atPath: plugin) else {
            record(.missing(id: "sound.faceLatency", title: title, unit: "ms", target: "≤ 50 ms at p99",
                            why: "deck-plugin-sound is not built in \(productsFolder)"))
            return
        }
        guard ["/usr/bin/pulseaudio", "/usr/bin/pactl"].allSatisfy(FileManager.default.isExecutableFile) else {
            record(.missing(id: "sound.faceLatency", title: title, unit: "ms", target: "≤ 50 ms at p99",
                            why: "pulseaudio and pactl are not installed (make setup installs them)"))
            return
        }
        let server = try PulseServer()
        try server.start()
        let subscriber = try SubscribeWatcher(environment: server.environment)
        defer { subscriber.stop() }
        let pipe = try PluginPipe(executable: plugin, environment: server.environment,
                                  stderrPath: try folder("sound") + "/plugin.stderr")
        defer { _ = pipe.shutdown() }
        try pipe.hello(plugin: "sound")
        try pipe.buttons([(page: 0, index: 0, name: "Volume", command: "volume", settings: ["device": "deck_out"])])
        guard pipe.read(until: { $0.face(0, 0)?.title == "100%" }),
              try subscriber.waitUntilListening(poke: { try server.pactl("set-sink-mute", "deck_out", "0") }) else {
            throw BenchError.setup("the sound plugin or pactl subscribe did not start against the bench's pulseaudio")
        }
        var faces: [Double] = [], floors: [Double] = []
        let rounds = options.quick ? 10 : 200
        for round in 0..<(rounds + 5) {
            let percent = 10 + round % 80
            let seen = subscriber.count
            // Not waited for before reading the face: Foundation notices a child's exit only on a later
            // run-loop turn (tens of ms), which would be charged to the plugin and not to the floor.
            let change = Process()
            change.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
            change.arguments = ["set-sink-volume", "deck_out", "\(percent)%"]
            change.environment = server.environment
            let start = ContinuousClock.now
            try change.run()
            defer { change.reap() }
            guard pipe.read(until: { $0.face(0, 0)?.title == "\(percent)%" }, timeout: .seconds(5)),
                  let delivered = subscriber.sinkChange(after: seen, timeout: .seconds(5)) else {
                throw BenchError.setup("a volume change did not reach the plugin or pactl subscribe within 5 s")
            }
            let face = ContinuousClock.now
            guard round >= 5 else { continue }  // warm-up
            faces.append(Self.milliseconds(start.duration(to: face)))
            floors.append(Self.milliseconds(start.duration(to: delivered)))
        }
        let value = Samples(faces)
        record(Figure(id: "sound.faceLatency", title: title, unit: "ms", value: .init(value),
                      baselineLabel: "pactl subscribe, same event (floor)", baseline: .init(Samples(floors)),
                      target: "≤ 50 ms at p99", verdict: value.p99 <= 50 ? .met : .missed,
                      note: "\(rounds) volume changes of a null sink by pactl; the face is the plugin's setTitle line as "
                        + "a host reads it; both times include pactl's own start"))
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// The lines of `pactl subscribe` and when each came, filled by a reader thread.
private final class LineLog: Sendable {
    let lines = Mutex<[(text: String, at: ContinuousClock.Instant)]>([])
    /// Signalled once per line.
    let arrived = DispatchSemaphore(value: 0)
}

/// `pactl subscribe`, read on a thread of its own: when each event line came.
private final class SubscribeWatcher: Sendable {
    private let process: Process
    private let log = LineLog()

    init(environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
        process.arguments = ["subscribe"]
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let log = log
        let handle = out.fileHandleForReading
        Thread {
            var buffer: [UInt8] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                let at = ContinuousClock.now
                buffer += data
                while let end = buffer.firstIndex(of: 0x0A) {
                    let text = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeSubrange(...end)
                    log.lines.withLock { $0.append((text, at)) }
                    log.arrived.signal()
                }
            }
        }.start()
    }

    var count: Int { log.lines.withLock { $0.count } }

    /// pactl subscribe prints nothing until something changes, and gives no
    /// sign that it has subscribed: poke the server until a line comes.
    func waitUntilListening(poke: () throws -> Void) throws -> Bool {
        for _ in 0..<50 {
            try poke()
            if log.arrived.wait(timeout: .now() + 0.1) == .success { return true }
        }
        return false
    }

    /// When the first sink `change` event after the first `seen` lines came.
    func sinkChange(after seen: Int, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = log.lines.withLock { lines in
                lines.dropFirst(seen).first { $0.text.hasPrefix("Event 'change' on sink #") }?.at
            }
            if let found { return found }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            _ = log.arrived.wait(timeout: .now() + Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
        }
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.reap()
    }
}
