import DeckDBus
import DeckTestSupport
import Foundation

/// A private bus for one test: a real `dbus-daemon --session` listening in a
/// temporary folder, and optionally the peer (peer.py, Debian's python3 with
/// python3-dbus) owning `org.deck.TestPeer` on it. Both are waited on by the
/// line they print once ready, never by a sleep, and killed at the end.
final class TestBus {
    static let peerName = "org.deck.TestPeer"
    static let peerPath = "/org/deck/TestPeer"
    static let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("peer.py").path

    let folder: TemporaryDirectory
    let address: String
    private let daemon: Process
    private(set) var peer: Process?

    init() throws {
        folder = try TemporaryDirectory(prefix: "dbus")
        address = "unix:path=\(folder.path)/bus"
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"]
        // Its stderr only says that, not being root of the machine, it cannot raise its descriptor limit.
        daemon.standardError = FileHandle.nullDevice
        let printed = try Self.start(daemon, environment: ProcessInfo.processInfo.environment)
        guard printed.hasPrefix(address + ",guid=") else {
            throw HarnessError("dbus-daemon printed '\(printed)', not its address (is dbus-daemon installed? make setup)")
        }
    }

    deinit {
        stopPeer()
        Self.end(daemon)
    }

    /// Starts the peer and returns once it owns its name.
    func startPeer() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.peerScript]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        let printed = try Self.start(process, environment: environment)
        guard printed == "ready" else { throw HarnessError("peer.py printed '\(printed)', not ready (python3-dbus, python3-gi?)") }
        peer = process
    }

    /// Kills the peer (SIGKILL: it leaves the bus without a word) and reaps it.
    func stopPeer() {
        if let peer { Self.end(peer) }
        peer = nil
    }

    /// Kills the bus daemon: every connection to it breaks.
    func stopDaemon() {
        Self.end(daemon)
    }

    /// A connection to this bus.
    func connect(limits: DBusLimits = .standard) throws -> DBusConnection {
        try DBusConnection(.address(address), limits: limits)
    }

    /// Runs `process` and returns the first line it prints (its "ready").
    private static func start(_ process: Process, environment: [String: String]) throws -> String {
        let out = Pipe()
        process.standardOutput = out
        process.environment = environment
        try process.run()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(out.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    private static func end(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.reap()
    }
}

extension DBusConnection {
    /// Waits on the connection's socket (its own `poll`, bounded by
    /// `seconds` as a failure bound, not a pause) until `done` holds for the
    /// messages received so far; returns them.
    func messages(within seconds: Int64 = 10, until done: ([DBusMessage]) -> Bool) throws -> [DBusMessage] {
        let deadline = Self.monotonicMilliseconds() + seconds * 1000
        var seen: [DBusMessage] = []
        while true {
            seen += try process()
            if done(seen) { return seen }
            let left = deadline - Self.monotonicMilliseconds()
            guard left > 0 else { throw HarnessError("waited \(seconds) s; the bus delivered only \(seen)") }
            let state = try pollState()
            var descriptor = pollfd(fd: state.descriptor, events: state.events, revents: 0)
            let wait = state.timeoutMilliseconds < 0 ? Int32(left) : min(Int32(left), state.timeoutMilliseconds)
            _ = poll(&descriptor, 1, wait)
        }
    }

    /// The reply or error to the call with `cookie`.
    func answer(to cookie: UInt64) throws -> DBusMessage {
        func matches(_ message: DBusMessage) -> Bool {
            switch message.kind {
            case .reply(let answered), .error(let answered, _, _): answered == cookie
            case .signal: false
            }
        }
        return try messages { $0.contains(where: matches) }.first(where: matches)!
    }

    /// Calls the peer.
    @discardableResult
    func callPeer(_ member: String, _ arguments: [DBusValue] = [], timeoutMicroseconds: UInt64 = 25_000_000) throws -> UInt64 {
        try call(destination: TestBus.peerName, path: TestBus.peerPath, interface: TestBus.peerName, member: member,
                 arguments: arguments, timeoutMicroseconds: timeoutMicroseconds)
    }
}
