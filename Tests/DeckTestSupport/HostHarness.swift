import DeckModel
import DeckProtocol
import DeckTransport
import Foundation
import Synchronization

/// A real `deckd` process for end-to-end tests: its own temporary layouts,
/// state and control-socket folders, an ephemeral TCP port, and its log.
///
/// `start()` waits for the `deckd ready` line (not a sleep) and reads the
/// real port from it; `stop()` sends SIGTERM, `kill9()` SIGKILL; `start()`
/// again restarts it on the same folders. Parallel-safe: nothing is shared.
public final class HostProcess: @unchecked Sendable {
    // @unchecked Sendable: used by one test at a time; `process` and `port`
    // change only in start/stop, which tests call from one task.
    public let root: TemporaryDirectory
    /// The layouts folder (`--layouts`).
    public let layouts: String
    /// The state folder (`--state`).
    public let state: String
    /// The control socket (`--control`).
    public let control: String
    /// Where the host's standard error goes.
    public let logPath: String
    /// Options added to every start.
    public var arguments: [String]
    /// A program (and its arguments) that starts deckd, which it is given as
    /// its last arguments: `["/bin/sh", "-c", "ulimit -f 16 && exec \"$@\"", "sh"]`
    /// runs deckd with limits of its own. Empty: deckd is started directly.
    public var launcher: [String] = []
    public private(set) var port = 0
    private var process: Process?
    /// deckd's process id while it runs (to read its /proc figures).
    public var processIdentifier: Int32? { process?.isRunning == true ? process?.processIdentifier : nil }
    private var logOffset = 0

    /// Prepares folders and writes `files` (name → YAML) into the layouts folder.
    public init(files: [String: String], arguments: [String] = []) throws {
        root = try TemporaryDirectory(prefix: "host")
        layouts = root.path + "/layouts"
        state = root.path + "/state"
        control = root.path + "/run/control.sock"
        logPath = root.path + "/deckd.log"
        self.arguments = arguments
        try FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.path + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for (name, text) in files { try write(name, text) }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    }

    /// Writes a layouts file (as an editor saving in place would).
    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: layouts + "/" + name))
    }

    /// The host's log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts deckd and waits until it is ready.
    public func start(extra: [String] = [], timeout: Duration = .seconds(20)) throws {
        let process = try launch(extra: extra)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = String(log.utf8.dropFirst(logOffset)) ?? ""
            if let range = text.range(of: "deckd ready on ") {
                let rest = text[range.upperBound...]
                if let colon = rest.firstIndex(of: ":") {
                    port = Int(rest[rest.index(after: colon)...].prefix { $0.isNumber }) ?? 0
                }
                return
            }
            if !process.isRunning { throw HarnessError("deckd exited with \(process.terminationStatus): \(log.suffix(2000))") }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw HarnessError("deckd did not become ready: \(log.suffix(2000))")
    }

    /// Starts deckd and waits for it to exit on its own (for refusals).
    public func runToExit(extra: [String] = [], timeout: Duration = .seconds(20)) throws -> Int32 {
        let process = try launch(extra: extra)
        return try wait(process, timeout: timeout)
    }

    /// deckd's web listener defaults to 127.0.0.1:7532: hosts that ask for none get `--no-web`, so parallel tests never share it.
    private func webDefault(_ given: [String]) -> [String] {
        given.contains { $0.hasPrefix("--web") || $0 == "--no-web" } ? [] : ["--no-web"]
    }

    private func launch(extra: [String]) throws -> Process {
        // The previous run is over (tests start again only after a stop or a
        // refusal): reap it so Foundation frees it.
        if let previous = process, !previous.isRunning { previous.reap() }
        logOffset = log.utf8.count
        let process = Process()
        let deckd = try BuiltProducts.path("deckd")
        // Plugins only from the test's own folder (`plugins`), never the user's.
        let options = ["--layouts", layouts, "--state", state, "--listen", "127.0.0.1:0", "--control", control,
                       "--plugins", root.path + "/plugins"] + webDefault(arguments + extra) + arguments + extra
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [deckd] + options
        } else {
            process.executableURL = URL(fileURLWithPath: deckd)
            process.arguments = options
        }
        // The example plugins' launchers (plugins/counter/counter) look for
        // their program in .build, else on PATH: this build's products first,
        // so the sanitizer builds (.build-asan, .build-tsan) find theirs.
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = handle
        // deckd starts with no signal blocked, as a shell or systemd starts it.
        // A test runs on a worker thread that blocks most signals, and the
        // child would inherit that mask: a signal that ends a real deckd (SIGXFSZ
        // past `ulimit -f`) would stay pending instead, and the test would pass.
        var none = sigset_t()
        sigemptyset(&none)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        // deckd has its own copy of the descriptor now.
        try? handle.close()
        self.process = process
        return process
    }

    private func wait(_ process: Process, timeout: Duration) throws -> Int32 {
        guard process.exited(within: timeout) else {
            process.terminate()
            throw HarnessError("deckd did not exit within \(timeout)")
        }
        return process.terminationStatus
    }

    /// SIGTERM, then waits for the exit status.
    @discardableResult
    public func stop(timeout: Duration = .seconds(5)) throws -> Int32 {
        guard let process, process.isRunning else { return self.process?.terminationStatus ?? 0 }
        kill(process.processIdentifier, SIGTERM)
        return try wait(process, timeout: timeout)
    }

    /// Sends `signal` to the running host.
    public func signal(_ signal: Int32) {
        if let process, process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// SIGKILL: no chance to clean up.
    public func kill9() throws {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = try wait(process, timeout: .seconds(5))
    }

    /// Waits until the log (since the last start) contains `text`.
    public func waitForLog(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (String(log.utf8.dropFirst(logOffset)) ?? "").contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// A device over TCP, handshaken (its `welcome` is in `welcome`).
    public func device(_ name: String = "device", kind: String = "phone", level: Int = 7, token: String? = nil) throws -> HostClient {
        let client = try HostClient(LineClient(connectingTo: .tcp(host: "127.0.0.1", port: port)))
        try client.hello(name: name, kind: kind, level: level, token: token)
        return client
    }

    /// A control client on the control socket, handshaken.
    public func controlClient(_ name: String = "test") throws -> HostClient {
        let client = try HostClient(LineClient(connectingTo: .unix(path: control)))
        try client.hello(name: name, kind: "control")
        return client
    }

    /// A raw connection to the TCP port, no hello sent.
    public func rawDevice() throws -> HostClient {
        try HostClient(LineClient(connectingTo: .tcp(host: "127.0.0.1", port: port)))
    }

    deinit {
        // SIGTERM first, so the host stops its plugins and nothing a test
        // started outlives it; SIGKILL if it does not go within 3 s.
        guard let process else { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            if !process.exited(within: .seconds(3)) { kill(process.processIdentifier, SIGKILL) }
        }
        // Also when it had already exited: only this frees the Process (Process+Reap.swift).
        process.reap()
    }
}

/// One client of a test host, speaking DeckProtocol over a ``LineClient``.
public final class HostClient: @unchecked Sendable {
    // @unchecked Sendable: each client is used by one task at a time.
    public let line: LineClient
    /// Messages read while waiting for something else, in order.
    public private(set) var backlog: [HostMessage] = []
    public private(set) var welcome: Welcome?
    private var nextID = 1

    public init(_ line: LineClient) { self.line = line }

    /// Sends hello and waits for the welcome (throws on an error reply).
    public func hello(name: String, kind: String, level: Int = 7, token: String? = nil) throws {
        let reply = try request(.hello(Hello(protocolLevel: level, device: Device(name: name, kind: kind), token: token)))
        guard case .welcome(_, let welcome) = reply else { throw HarnessError("hello answered with \(reply)") }
        self.welcome = welcome
    }

    /// Sends a request with a fresh id.
    @discardableResult
    public func send(_ request: ClientRequest) throws -> RequestID {
        let id = RequestID.int(nextID)
        nextID += 1
        try line.send(ClientMessage(id: id, request).line())
        return id
    }

    /// Sends a request and returns its reply; other messages go to the backlog.
    public func request(_ request: ClientRequest, timeout: Duration = .seconds(10)) throws -> HostMessage {
        let id = try send(request)
        return try reply(to: id, timeout: timeout)
    }

    /// The reply to `id` (other messages read on the way go to the backlog).
    public func reply(to id: RequestID, timeout: Duration = .seconds(10)) throws -> HostMessage {
        try next(timeout: timeout) { $0.id == id }
    }

    /// The next message (the backlog first).
    public func next(timeout: Duration = .seconds(10)) throws -> HostMessage {
        if !backlog.isEmpty { return backlog.removeFirst() }
        return try read(timeout: timeout)
    }

    /// The first message matching `predicate`, from the backlog or the wire;
    /// the others stay in the backlog.
    public func next(timeout: Duration = .seconds(10), where predicate: (HostMessage) -> Bool) throws -> HostMessage {
        if let index = backlog.firstIndex(where: predicate) { return backlog.remove(at: index) }
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - .now
            guard left > .zero else { throw HarnessError("no matching message within \(timeout); saw \(backlog)") }
            let message = try read(timeout: left)
            if predicate(message) { return message }
            backlog.append(message)
        }
    }

    /// The next `layout` broadcast.
    public func nextLayout(timeout: Duration = .seconds(10)) throws -> (revision: Int, layout: DeckLayout) {
        let message = try next(timeout: timeout) { if case .layout = $0 { return true } else { return false } }
        guard case let .layout(_, revision, layout, _, _) = message else { throw HarnessError("not a layout") }
        return (revision, layout)
    }

    /// True when nothing arrives within `timeout` (a short, bounded wait).
    public func staysQuiet(for timeout: Duration = .milliseconds(200)) -> Bool {
        guard backlog.isEmpty else { return false }
        do {
            backlog.append(try read(timeout: timeout))
            return false
        } catch {
            return true
        }
    }

    /// True when the host closes the connection within `timeout`.
    public func isClosed(within timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            do {
                _ = try line.readLine(timeout: deadline - .now)
            } catch TransportError.connectionClosed {
                return true
            } catch {
                return false
            }
        }
        return false
    }

    private func read(timeout: Duration) throws -> HostMessage {
        let data = try line.readLine(timeout: timeout)
        return try HostMessage.decode(data)
    }
}

/// A harness failure, with what the host logged.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
