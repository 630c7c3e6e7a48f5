import Dispatch
import Foundation
import Glibc
import Synchronization

/// A program the benchmark starts (python3, deckd, deckctl): started with
/// `posix_spawn` so that the moment of `exec` is known to the microsecond,
/// standard input from /dev/null, standard output and error into one pipe
/// that a thread reads to the end — a child that logs must never block on a
/// full pipe while it is being measured.
package final class Child: Sendable {
    package let pid: pid_t
    /// When `posix_spawn` was called (``BenchClock/now()``).
    package let started: UInt64
    private let output: OutputCollector

    /// Starts `program` (a path) with `arguments`. `watchFor`: a line prefix
    /// whose first arrival time ``waitForLine(timeout:)`` reports.
    package init(_ program: String, _ arguments: [String], watchFor: String? = nil) throws(BenchError) {
        var pipeFDs: [Int32] = [-1, -1]
        // pipe + FD_CLOEXEC rather than pipe2 (not in Swift's Glibc module): the
        // benchmark starts children from one thread, so no other spawn can race in between.
        guard pipe(&pipeFDs) == 0 else { throw .system("cannot make a pipe", errno) }
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let start = BenchClock.now()
        let result = posix_spawn(&child, program, &actions, nil, argv, environ)
        close(pipeFDs[1])
        guard result == 0 else {
            close(pipeFDs[0])
            throw .system("cannot start \(program)", result)
        }
        pid = child
        started = start
        output = OutputCollector(fd: pipeFDs[0], watchFor: watchFor)
    }

    /// Microseconds from `exec` until the watched line arrived; nil if the
    /// child closed its output first or `timeout` passed.
    package func waitForLine(timeout: Double) -> Double? {
        guard let arrival = output.waitForWatchedLine(timeout: timeout) else { return nil }
        return Double(arrival &- started) / 1_000
    }

    /// Everything the child wrote so far (the last 64 KiB).
    package var text: String { output.text }

    /// Sends `signal`.
    package func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the child to end and its output to close; its exit status
    /// (128 + signal when killed).
    @discardableResult
    package func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        output.waitForEnd()
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Runs `program` to the end and returns its exit status and output.
    package static func run(_ program: String, _ arguments: [String]) throws(BenchError) -> (status: Int32, output: String) {
        let child = try Child(program, arguments)
        let status = child.wait()
        return (status, child.text)
    }

    /// The full path of `name` on PATH, or nil.
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}

/// Reads a child's output on its own thread until the end, noting when a
/// watched line first appears.
private final class OutputCollector: Sendable {
    private struct State {
        var text: [UInt8] = []
        var watchedArrival: UInt64?
        var ended = false
    }

    private let state = Mutex(State())
    private let changed = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32, watchFor: String?) {
        let pattern = watchFor.map { Array($0.utf8) }
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 16_384)
            var lineStart = 0
            var pending: [UInt8] = []
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                let now = BenchClock.now()
                var found = false
                if let pattern {
                    pending.append(contentsOf: chunk[..<count])
                    while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                        if pending[lineStart..<newline].starts(with: pattern) { found = true }
                        lineStart = newline + 1
                    }
                    pending.removeFirst(lineStart)
                    lineStart = 0
                }
                let taken = chunk[..<count]
                state.withLock { state in
                    state.text.append(contentsOf: taken)
                    if state.text.count > 65_536 { state.text.removeFirst(state.text.count - 65_536) }
                    if found, state.watchedArrival == nil { state.watchedArrival = now }
                }
                if found { changed.signal() }
            }
            close(fd)
            state.withLock { $0.ended = true }
            changed.signal()
            done.signal()
        }
    }

    var text: String { state.withLock { String(decoding: $0.text, as: UTF8.self) } }

    func waitForWatchedLine(timeout: Double) -> UInt64? {
        let deadline = DispatchTime.now() + timeout
        while true {
            let (arrival, ended) = state.withLock { ($0.watchedArrival, $0.ended) }
            if let arrival { return arrival }
            if ended || changed.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    func waitForEnd() { done.wait() }
}
