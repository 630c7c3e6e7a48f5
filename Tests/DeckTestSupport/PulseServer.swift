import Foundation
import Synchronization

/// A real PulseAudio daemon for one test or bench run, in a private folder:
/// its runtime folder, state and HOME are all temporary, so nothing of the
/// user's sound set-up is read or touched. It has a null sink `deck_out`
/// (the default output) and a null source `deck_in` (the default input).
///
/// Started with `--daemonize=yes`: the starting `pulseaudio` exits only once
/// the daemon is ready, so a test waits on that exit, never on a sleep. As
/// root (CI and these machines) the daemon only warns that it is "not
/// intended to be run as root"; `--system=no` keeps it a per-user server.
public final class PulseServer: @unchecked Sendable {
    // @unchecked: a test drives one server from one thread at a time; the
    // pid is only read and written by start() and stop() on that thread.

    /// The private folder.
    public let root: TemporaryDirectory
    /// The native protocol's socket.
    public let socket: String
    /// Extra `--load` arguments (a TCP listener with cookie auth, say).
    public let extraModules: [String]
    /// Whether clients must prove themselves (no anonymous unix clients).
    public let anonymous: Bool
    private(set) var pid: Int32?

    /// A server that is not started yet.
    public init(anonymous: Bool = true, extraModules: [String] = []) throws {
        root = try TemporaryDirectory(prefix: "pulse")
        socket = root.path + "/run/native"
        self.anonymous = anonymous
        self.extraModules = extraModules
        for folder in ["run", "home", "state"] {
            try FileManager.default.createDirectory(atPath: root.path + "/" + folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    deinit {
        stop()
        root.remove()
    }

    /// The environment a client of this server runs with: libpulse finds
    /// the server by PULSE_SERVER and nothing reaches the user's own HOME.
    /// The sanitizers' settings pass through: under `make sanitize` a plugin
    /// built with TSan that lacked the suppressions would report the Mutex
    /// false positive (Support/sanitizers/tsan.supp) and exit 66.
    public var environment: [String: String] {
        var environment = ["HOME": root.path + "/home", "XDG_RUNTIME_DIR": root.path + "/run",
                           "PULSE_RUNTIME_PATH": root.path + "/run/pulse", "PULSE_STATE_PATH": root.path + "/state",
                           "PULSE_SERVER": "unix:" + socket, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let inherited = ProcessInfo.processInfo.environment
        for name in ["TSAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS", "SWIFT_BACKTRACE", "DECK_SANITIZER"] {
            environment[name] = inherited[name]
        }
        return environment
    }

    /// Starts the daemon and returns once it accepts clients.
    public func start() throws {
        guard pid == nil else { return }
        try? FileManager.default.removeItem(atPath: socket)
        let log = root.path + "/pulseaudio.log"
        let arguments = ["--daemonize=yes", "--system=no", "-n", "--exit-idle-time=-1", "--use-pid-file=yes",
                         "--log-target=file:" + log,
                         "--load=module-null-sink sink_name=deck_out",
                         "--load=module-null-source source_name=deck_in",
                         "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=\(anonymous ? 1 : 0)",
                         // pacmd's socket ($PULSE_RUNTIME_PATH/cli): the flood tests send hundreds of commands through one.
                         "--load=module-cli-protocol-unix"] + extraModules.map { "--load=" + $0 }
        let result = try Self.run("/usr/bin/pulseaudio", arguments, environment: environment)
        guard result.status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw HarnessError("pulseaudio did not start (exit \(result.status)): \(result.err)\n\(text.suffix(2000))")
        }
        let pidText = try String(contentsOfFile: root.path + "/run/pulse/pid", encoding: .utf8)
        guard let started = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("pulseaudio wrote no pid file")
        }
        pid = started
    }

    /// Stops the daemon (SIGTERM) and waits until it is gone.
    public func stop() {
        guard let running = pid else { return }
        pid = nil
        kill(running, SIGTERM)
        if !allGone([running], within: .seconds(5)) {
            kill(running, SIGKILL)
            _ = allGone([running], within: .seconds(5))
        }
    }

    /// Runs `pactl` against this server; throws when it fails.
    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        let result = try Self.run("/usr/bin/pactl", arguments, environment: environment)
        guard result.status == 0 else { throw HarnessError("pactl \(arguments.joined(separator: " ")) failed: \(result.err)") }
        return result.out
    }

    /// Sends CLI commands (one a line) through one `pacmd`: hundreds of
    /// changes in a fraction of a second, as a flood from outside.
    public func pacmd(_ commands: [String]) throws {
        let input = commands.joined(separator: "\n") + "\n"
        let result = try Self.run("/usr/bin/pacmd", [], environment: environment, input: input)
        guard result.status == 0 else { throw HarnessError("pacmd failed: \(result.err)") }
    }

    /// Starts a real playback stream from `application` (`pacat` playing
    /// silence from /dev/zero to the default sink) and returns it; end it with ``endStream(_:)``.
    public func playStream(application: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pacat")
        process.arguments = ["--playback", "--client-name=\(application)", "--stream-name=\(application) test",
                             "--property=application.name=\(application)", "--latency-msec=100"]
        process.environment = environment
        process.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a stream of ``playStream(application:)`` and reaps it. SIGKILL:
    /// a child the test process starts inherits its blocked SIGTERM.
    public func endStream(_ stream: Process) {
        if stream.isRunning { kill(stream.processIdentifier, SIGKILL) }
        stream.reap()
    }

    /// The sink inputs as `pactl list sink-inputs` prints them.
    public func sinkInputs() throws -> String { try pactl("list", "sink-inputs") }

    static func run(_ path: String, _ arguments: [String], environment: [String: String],
                    input: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both to the end before waiting: a child that fills a pipe would never exit.
        let errData = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            done.signal()
        }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.reap()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), errData.withLock { String(decoding: $0, as: UTF8.self) })
    }
}

