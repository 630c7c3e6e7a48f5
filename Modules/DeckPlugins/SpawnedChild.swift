internal import CLinux
import Glibc

/// A program started with `posix_spawn` in a process group of its own: the
/// one way the host starts other programs (plugins here; `run` and `open`
/// actions and the lock probe through DeckHost's `ChildProcess`). Package API.
///
/// Why not Foundation's `Process`: it cannot put the child in a new process
/// group (so a timeout could not kill what the child started), it did not
/// kill a hung child promptly in a trial, and it costs full Foundation.
///
/// Every descriptor the host opens is close-on-exec, so the child inherits
/// only its three standard streams. The signals the host blocks (it reads
/// them through a signalfd) and SIGPIPE and SIGXFSZ (which it ignores) are
/// unblocked and reset to their defaults in the child: an ignored signal
/// stays ignored across exec otherwise.
package struct SpawnedChild: Sendable {
    /// What the child's standard input is.
    package enum Input: Sendable {
        case nullDevice
        /// A pipe whose write end is ``input``.
        case pipe
    }

    /// Why a program could not be started.
    package struct Failure: Error, Sendable {
        /// What was to be started (`arguments[0]`).
        package var program: String
        /// The system's reason, as a phrase ("No such file or directory").
        package var reason: String
        /// The error number, to tell a missing program or folder from others.
        package var code: Int32
    }

    package let pid: Int32
    /// Write end of the child's standard input, or -1 for /dev/null.
    package let input: Int32
    /// Read ends of its standard output and error, non-blocking.
    package let output: Int32
    package let errors: Int32
    /// Readable once the child has exited; -1 on kernels without pidfd (before 5.3).
    package let exitDescriptor: Int32

    /// The system's reason, and for a program that exists but "does not
    /// exist" the one thing that can be missing: the interpreter its `#!`
    /// line names (exec reports that as ENOENT of the program itself).
    static func reason(_ code: Int32, program: String) -> String {
        let words = String(cString: strerror(code))
        guard code == ENOENT, access(program, F_OK) == 0 else { return words }
        guard let handle = fopen(program, "r") else { return words }
        defer { fclose(handle) }
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), handle) != nil else { return words }
        let first = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard first.hasPrefix("#!") else { return words }
        let interpreter = first.dropFirst(2).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            .prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" }
        return "\(words): the interpreter its first line names, '\(interpreter)', is not there"
    }

    /// Starts `arguments[0]` (a path; no `PATH` search) with `arguments`.
    ///
    /// - Parameters:
    ///   - workingDirectory: the child's working directory (nil: the host's).
    ///   - nonBlockingInput: make the host's end of an input pipe non-blocking.
    ///   - environment: `NAME=value` entries (nil: the host's environment).
    ///   - beforeRetry: called before each new attempt after ETXTBSY (tests).
    package static func spawn(_ arguments: [String], workingDirectory: String? = nil, input: Input = .nullDevice,
                              nonBlockingInput: Bool = false, environment: [String]? = nil,
                              beforeRetry: () -> Void = {}) throws(Failure) -> SpawnedChild {
        guard let program = arguments.first else { throw Failure(program: "", reason: "there is no program to run", code: EINVAL) }
        var pipes: [[Int32]] = []
        func closeAll() { for fd in pipes.joined() { _ = close(fd) } }
        for _ in 0..<(input == .pipe ? 3 : 2) {
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                let code = errno
                closeAll()
                throw Failure(program: program, reason: "could not make a pipe: \(String(cString: strerror(code)))", code: code)
            }
            pipes.append(ends)
        }
        let (stdout, stderr, stdin) = (pipes[0], pipes[1], pipes.count > 2 ? pipes[2] : [-1, -1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input == .pipe {
            posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
        // The child gets its three descriptors and nothing else. Not all of the
        // host's are close-on-exec (Foundation opens files without O_CLOEXEC):
        // one inherited by a long-lived child stays open in it. A file opened
        // for writing meanwhile (a plugin being written) then stayed "busy"
        // for as long as that child ran, and every spawn of it failed ETXTBSY.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let workingDirectory { posix_spawn_file_actions_addchdir_np(&actions, workingDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGXFSZ, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: Int32 = 0
        func attempt() -> Int32 {
            withCStrings(arguments) { argv in
                if let environment {
                    return withCStrings(environment) { envp in posix_spawn(&pid, program, &actions, &attributes, argv, envp) }
                }
                return posix_spawn(&pid, program, &actions, &attributes, argv, environ)
            }
        }
        var result = attempt()
        // ETXTBSY is transient: a program just written (a plugin being
        // installed, a script a test made) is still open for writing in a
        // child that another thread forked and that has not reached its exec
        // yet. Try again a few times, 155 ms at most, before calling it a failure.
        var pause: UInt32 = 5_000
        while result == ETXTBSY && pause <= 80_000 {
            usleep(pause)
            pause *= 2
            beforeRetry()
            result = attempt()
        }
        for fd in [stdout[1], stderr[1], stdin[0]] where fd >= 0 { _ = close(fd) }
        guard result == 0 else {
            for fd in [stdout[0], stderr[0], stdin[1]] where fd >= 0 { _ = close(fd) }
            throw Failure(program: program, reason: Self.reason(result, program: program), code: result)
        }
        var nonBlocking = [stdout[0], stderr[0]]
        if nonBlockingInput && stdin[1] >= 0 { nonBlocking.append(stdin[1]) }
        for fd in nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return SpawnedChild(pid: pid, input: stdin[1], output: stdout[0], errors: stderr[0], exitDescriptor: deck_pidfd_open(pid))
    }
}

/// Calls `body` with a NULL-terminated C array of `strings`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { buffer in
        // Never nil: the array holds at least its terminating nil.
        guard let base = buffer.baseAddress else { preconditionFailure("empty argument vector") }
        return body(base)
    }
}
