import DeckPlugins
import Glibc

/// A child process started by DeckPlugins' `SpawnedChild` (`posix_spawn`, its
/// own process group, signals reset) with standard input from /dev/null (or a
/// pipe) and pipes for its output, waited for on the calling thread: how the
/// `run` and `open` actions and the lock probe run. (Plugins use the same
/// spawn, watched on the event loop instead.)
struct ChildProcess: ~Copyable {
    /// What the child's standard input is (`.pipe`: its write end is ``standardInput``).
    typealias Input = SpawnedChild.Input

    /// How a child ended.
    enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        /// Still running at its deadline; its whole group was killed.
        case timedOut
    }

    let pid: pid_t
    /// Read ends of the child's standard output and error (non-blocking).
    private(set) var standardOutput: Int32
    private(set) var standardError: Int32
    /// Write end of the child's standard input, or -1.
    private(set) var standardInput: Int32
    /// Readable once the child has exited; -1 where the kernel has no pidfd.
    private let exitDescriptor: Int32
    private var reaped: Termination?

    /// Starts `arguments[0]` (a path; no PATH search) with `arguments`.
    ///
    /// - Throws: ``HostError/runtime(_:)`` naming what failed (no such
    ///   program, no such working folder, out of processes).
    init(_ arguments: [String], workingDirectory: String? = nil, input: Input = .nullDevice,
         environment: [String]? = nil) throws(HostError) {
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(arguments, workingDirectory: workingDirectory, input: input,
                                           environment: environment)
        } catch {
            if let workingDirectory, error.code == ENOENT || error.code == ENOTDIR || error.code == EACCES {
                throw .runtime("could not start \(error.program) in \(workingDirectory): \(error.reason)")
            }
            throw .runtime("could not start \(error.program): \(error.reason)")
        }
        pid = child.pid
        standardOutput = child.output
        standardError = child.errors
        standardInput = child.input
        exitDescriptor = child.exitDescriptor
    }

    deinit {
        for fd in [standardOutput, standardError, standardInput, exitDescriptor] where fd >= 0 { _ = close(fd) }
        if reaped == nil {
            // Never leave a zombie: kill what is left of the group and reap it.
            _ = kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Sends `signal` to the child's whole process group.
    func signalGroup(_ signal: Int32) {
        _ = kill(-pid, signal)
    }

    /// Waits for the child to end, handing its output to `output` as it comes
    /// (`isError` for standard error), killing the whole group at `deadline`,
    /// or as soon as `interrupt` (a descriptor, -1 for none) is readable.
    ///
    /// Returns when the child itself has ended; output that processes it left
    /// behind still write afterwards is collected by ``drainOutput(until:_:)``.
    /// The group is killed from the waiting thread, before the child is
    /// reaped, so the signal can never reach a later group that reuses the id.
    mutating func wait(deadline: ContinuousClock.Instant?, interrupt: Int32 = -1,
                       output: (_ bytes: ArraySlice<UInt8>, _ isError: Bool) -> Void) -> Termination {
        if let reaped { return reaped }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var timedOut = false
        while true {
            if let ended = reapIfEnded() {
                drain(&buffer, output)
                let termination = timedOut ? .timedOut : ended
                reaped = termination
                return termination
            }
            var timeout: Int32 = exitDescriptor >= 0 ? -1 : 50  // without a pidfd, look again every 50 ms
            if let deadline, !timedOut {
                let left = deadline - .now
                if left <= .zero {
                    signalGroup(SIGKILL)
                    timedOut = true
                    continue
                }
                let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            var fds = [pollfd(fd: standardOutput, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: standardError, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: timedOut ? -1 : interrupt, events: Int16(POLLIN), revents: 0)]
            let ready = Glibc.poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { timeout = 50 }
            if ready > 0 { drain(&buffer, output) }
            if fds[3].revents != 0 {
                signalGroup(SIGKILL)
                timedOut = true
            }
        }
    }

    /// Reads what remains on the output pipes until every writer has closed
    /// them or `deadline` passes (a background job the command started may
    /// keep them open for hours; the caller decides how long to listen).
    mutating func drainOutput(until deadline: ContinuousClock.Instant?, _ output: (_ bytes: ArraySlice<UInt8>, _ isError: Bool) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while standardOutput >= 0 || standardError >= 0 {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - .now
                if left <= .zero { break }
                timeout = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            var fds = [pollfd(fd: standardOutput, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: standardError, events: Int16(POLLIN), revents: 0)]
            let ready = Glibc.poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if ready > 0 { drain(&buffer, output) }
        }
    }

    /// Reads what is available now from both pipes (a bounded amount, so a
    /// child that never stops printing cannot keep the caller from its
    /// deadline); closes a pipe at its end.
    private mutating func drain(_ buffer: inout [UInt8], _ output: (ArraySlice<UInt8>, Bool) -> Void) {
        for isError in [false, true] {
            for _ in 0..<16 {
                let fd = isError ? standardError : standardOutput
                guard fd >= 0 else { break }
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    output(buffer[0..<count], isError)
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                _ = close(fd)  // end of file, or an error: nothing more will come
                if isError { standardError = -1 } else { standardOutput = -1 }
                break
            }
        }
    }

    /// The child's end, if it has ended (reaps it).
    private mutating func reapIfEnded() -> Termination? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else {
            if result < 0 && errno == ECHILD { return .exited(-1) }  // reaped elsewhere; should not happen
            return nil
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// Closes the write end of the child's standard input (end of input for it).
    mutating func closeInput() {
        if standardInput >= 0 {
            _ = close(standardInput)
            standardInput = -1
        }
    }
}

/// Finds a program in `PATH`, as a shell would (nil when it is not there).
func findExecutable(_ name: String, path: String?) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
        let candidate = "\(folder)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// Expands a leading `~` (or `~/…`) to the home folder, as a shell would.
func expandingTilde(_ path: String, home: String?) -> String {
    guard let home, path == "~" || path.hasPrefix("~/") else { return path }
    return home + path.dropFirst()
}
