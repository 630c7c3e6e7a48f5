internal import CLinux
import Glibc

/// A child process started with `posix_spawn` in its own process group, with
/// standard input from /dev/null (or a pipe) and pipes for its output — the one
/// way the host runs other programs (`run` and `open` actions, the lock probe,
/// and later plugins).
///
/// Why not Foundation's `Process`: it did not kill a hung child promptly in
/// our trial, it cannot put the child in a new process group (so a timeout
/// could not kill what the child started), and it costs full Foundation.
///
/// Every descriptor the host opens is close-on-exec, so the child inherits
/// only its three standard streams. Signals the host blocks (it reads them
/// through a signalfd) are unblocked and reset to default in the child.
struct ChildProcess: ~Copyable {
    /// What the child's standard input is.
    enum Input {
        case nullDevice
        /// A pipe whose write end is ``standardInput``.
        case pipe
    }

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
        guard let program = arguments.first else { throw .runtime("no program to run") }
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var inputPipe: [Int32] = [-1, -1]
        func closeAll() { for fd in output + errors + inputPipe where fd >= 0 { _ = close(fd) } }
        guard pipe2(&output, O_CLOEXEC) == 0, pipe2(&errors, O_CLOEXEC) == 0 else {
            let reason = String(cString: strerror(errno))
            closeAll()
            throw .runtime("could not make pipes for \(program): \(reason)")
        }
        if case .pipe = input, pipe2(&inputPipe, O_CLOEXEC) != 0 {
            let reason = String(cString: strerror(errno))
            closeAll()
            throw .runtime("could not make a pipe for \(program): \(reason)")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if case .pipe = input {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        if let workingDirectory { posix_spawn_file_actions_addchdir_np(&actions, workingDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var childPID: pid_t = 0
        let result = Self.withCStrings(arguments) { argv in
            if let environment {
                return Self.withCStrings(environment) { envp in posix_spawn(&childPID, program, &actions, &attributes, argv, envp) }
            }
            return posix_spawn(&childPID, program, &actions, &attributes, argv, environ)
        }
        _ = close(output[1])
        _ = close(errors[1])
        if inputPipe[0] >= 0 { _ = close(inputPipe[0]) }
        guard result == 0 else {
            _ = close(output[0])
            _ = close(errors[0])
            if inputPipe[1] >= 0 { _ = close(inputPipe[1]) }
            let reason = String(cString: strerror(result))
            if let workingDirectory, result == ENOENT || result == ENOTDIR || result == EACCES {
                throw .runtime("could not start \(program) in \(workingDirectory): \(reason)")
            }
            throw .runtime("could not start \(program): \(reason)")
        }
        pid = childPID
        standardOutput = output[0]
        standardError = errors[0]
        standardInput = inputPipe[1]
        for fd in [standardOutput, standardError] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        exitDescriptor = deck_pidfd_open(childPID)
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
    /// (`isError` for standard error), killing the whole group at `deadline`.
    ///
    /// Returns when the child itself has ended; output that processes it left
    /// behind still write afterwards is collected by ``drainOutput(until:_:)``.
    mutating func wait(deadline: ContinuousClock.Instant?, output: (_ bytes: ArraySlice<UInt8>, _ isError: Bool) -> Void) -> Termination {
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
                       pollfd(fd: exitDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = Glibc.poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { timeout = 50 }
            if ready > 0 { drain(&buffer, output) }
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

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { buffer in
            // Never nil: the array always holds at least its terminating nil.
            guard let base = buffer.baseAddress else { preconditionFailure("empty argument vector") }
            return body(base)
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
