import Foundation

/// A plugin program run by a test the way deckd runs it: JSON lines on its
/// standard input and output (PLUGINS.md §2), here written and read by the
/// test itself, which keeps what the plugin said: the face of each button
/// (docs/faces.md: `setState` and `setTitle` by slot), its log lines and flashes.
public final class PluginPipe: @unchecked Sendable {
    // @unchecked: a test drives one pipe from one thread; the fields below
    // change only inside read(until:), on that thread.

    /// The face a plugin set on one slot.
    public struct Face: Hashable, Sendable, CustomStringConvertible {
        /// The state id, nil for state 0.
        public var state: String?
        /// The title, nil for the button's name.
        public var title: String?
        /// Makes a face.
        public init(state: String?, title: String?) {
            self.state = state
            self.title = title
        }
        public var description: String { "state \(state ?? "-") title \(title ?? "-")" }
    }

    private let process = Process()
    private let stderrPath: String
    private let input: FileHandle
    private let output: Int32
    private var buffer: [UInt8] = []
    /// The last face of every slot, keyed `"page.index"`.
    public private(set) var faces: [String: Face] = [:]
    /// Every `log` message, in order.
    public private(set) var logs: [String] = []
    /// The slots of every `showAlert`, in order.
    public private(set) var alerts: [String] = []
    /// How many face messages (setState and setTitle) came so far.
    public private(set) var faceMessages = 0
    /// Whether `ready` came.
    public private(set) var ready = false
    /// Every line that was not valid JSON of a known type.
    public private(set) var strange: [String] = []

    /// Starts `executable` with `environment`; its stderr goes to `stderrPath`.
    public init(executable: String, environment: [String: String], stderrPath: String) throws {
        let stdin = Pipe(), stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.environment = environment
        self.stderrPath = stderrPath
        process.standardInput = stdin
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading.fileDescriptor
    }

    deinit {
        // SIGKILL: a child of the test process inherits its blocked SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.reap()
    }

    /// The plugin's pid.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// For a failed expectation: whether the plugin still runs (or how it
    /// ended), the faces it set, and the end of what it wrote to stderr.
    public var diagnosis: String {
        let state = process.isRunning ? "running" : "ended with status \(process.terminationStatus)"
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "(stderr unreadable)"
        return "plugin \(state); faces \(faces); stderr: \(stderr.suffix(2_000))"
    }

    /// Writes one JSON line (an object) to the plugin.
    public func send(_ object: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        data.append(0x0A)
        try input.write(contentsOf: data)
    }

    /// Sends `hello` and waits for `ready`.
    public func hello(plugin: String, timeout: Duration = .seconds(5)) throws {
        try send(["event": "hello", "protocol": 1, "host": ["name": "test", "version": "0"], "plugin": plugin])
        guard read(until: { $0.ready }, timeout: timeout) else { throw HarnessError("the plugin did not answer ready") }
    }

    /// Sends `buttons`: each entry `(page, index, name, command, settings)`.
    public func buttons(_ buttons: [(page: Int, index: Int, name: String, command: String, settings: [String: Any])]) throws {
        try send(["event": "buttons", "buttons": buttons.map {
            ["page": $0.page, "index": $0.index, "name": $0.name, "command": $0.command, "settings": $0.settings] as [String: Any]
        }])
    }

    /// Sends a `tap` press of the button at `page`/`index`.
    public func press(page: Int, index: Int, name: String, command: String, settings: [String: Any]) throws {
        try send(["event": "press", "phase": "tap", "command": command, "settings": settings,
                  "button": ["page": page, "index": index, "name": name], "device": ["name": "test", "kind": "control"]])
    }

    /// The face of the slot now.
    public func face(_ page: Int, _ index: Int) -> Face? { faces["\(page).\(index)"] }

    /// Reads the plugin's lines until `condition` holds (true) or `timeout`
    /// passes or the plugin's output ends (false). Checks before reading.
    @discardableResult
    public func read(until condition: (PluginPipe) -> Bool, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(self) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let polled = poll(&ready, 1, milliseconds)
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return condition(self) }
            buffer += chunk[0..<count]
            while let end = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                take(line)
            }
        }
        return true
    }

    private func take(_ line: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
              let type = object["type"] as? String else {
            strange.append(String(decoding: line, as: UTF8.self))
            return
        }
        let slot = "\(object["page"] as? Int ?? -1).\(object["index"] as? Int ?? -1)"
        switch type {
        case "ready": ready = true
        case "log": logs.append(object["message"] as? String ?? "")
        case "setState":
            faceMessages += 1
            faces[slot, default: Face(state: nil, title: nil)].state = object["state"] as? String
        case "setTitle":
            faceMessages += 1
            faces[slot, default: Face(state: nil, title: nil)].title = object["title"] as? String
        case "showAlert": alerts.append(slot)
        default: strange.append(String(decoding: line, as: UTF8.self))
        }
    }

    /// Sends `shutdown` and waits for the plugin to exit; false if it did not within `timeout`.
    public func shutdown(within timeout: Duration = .seconds(5)) -> Bool {
        try? send(["event": "shutdown"])
        return process.exited(within: timeout)
    }

    /// The plugin's exit status (after ``shutdown(within:)``).
    public var exitStatus: Int32 { process.terminationStatus }
}
