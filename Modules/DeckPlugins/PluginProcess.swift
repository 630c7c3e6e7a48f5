internal import CLinux
import Glibc

/// A plugin's running process: started with `posix_spawn` in a process group
/// of its own, its standard input, output and error on pipes whose host ends
/// are non-blocking, and a pidfd that becomes readable when it exits.
///
/// Not a wrapper that waits: the supervisor watches the descriptors on the
/// event loop, and calls ``reap()`` once the pidfd says the process is gone.
/// ``close()`` must be called before the value is dropped.
struct PluginProcess {
    let pid: pid_t
    /// Host end of the plugin's standard input (write, non-blocking).
    let input: Int32
    /// Host ends of its standard output and error (read, non-blocking).
    let output: Int32
    let errors: Int32
    /// Readable once the process has exited; -1 on kernels without pidfd
    /// (before 5.3), where the supervisor looks with ``reap()`` on a timer.
    let exitDescriptor: Int32

    /// Starts `arguments` (an absolute program path first) with `folder` as
    /// its working directory and the host's environment.
    static func spawn(_ arguments: [String], in folder: String) throws(DeckPluginsError) -> PluginProcess {
        guard let program = arguments.first else { throw .spawnFailed(program: "", reason: "exec is empty") }
        var pipes: [[Int32]] = []
        func closeAll() { for fd in pipes.joined() { _ = Glibc.close(fd) } }
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                let reason = String(cString: strerror(errno))
                closeAll()
                throw .spawnFailed(program: program, reason: "could not make a pipe: \(reason)")
            }
            pipes.append(ends)
        }
        let (stdin, stdout, stderr) = (pipes[0], pipes[1], pipes[2])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
        posix_spawn_file_actions_addchdir_np(&actions, folder)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The host blocks the signals it reads through a signalfd and ignores
        // SIGPIPE; a plugin starts with none blocked and all at their defaults
        // (an ignored signal would otherwise stay ignored across exec).
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let result = withCStrings(arguments) { argv in posix_spawn(&pid, program, &actions, &attributes, argv, environ) }
        for fd in [stdin[0], stdout[1], stderr[1]] { _ = Glibc.close(fd) }
        guard result == 0 else {
            for fd in [stdin[1], stdout[0], stderr[0]] { _ = Glibc.close(fd) }
            let reason = String(cString: strerror(result))
            throw .spawnFailed(program: program, reason: result == ENOENT ? "\(reason) (in \(folder))" : reason)
        }
        for fd in [stdin[1], stdout[0], stderr[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return PluginProcess(pid: pid, input: stdin[1], output: stdout[0], errors: stderr[0],
                             exitDescriptor: deck_pidfd_open(pid))
    }

    /// Sends `signal` to the plugin's whole process group (what it started too).
    func signalGroup(_ signal: Int32) {
        _ = kill(-pid, signal)
    }

    /// True once the process has exited (it is not reaped by asking).
    var hasExited: Bool {
        var info = siginfo_t()
        // WNOWAIT: look without reaping, so the group can still be signalled by its id.
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    /// Reaps the exited process and says how it ended ("exited with status
    /// 1", "was ended by signal 9"); nil while it still runs.
    ///
    /// Whatever the plugin left running in its group is killed first, while
    /// the unreaped leader still holds the group's id (so the id cannot have
    /// been reused by an unrelated process): a restart must not double them.
    func reap() -> String? {
        guard hasExited else { return nil }
        signalGroup(SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was ended by signal \(signal)"
    }

    /// Closes every host end (the plugin sees end of input if still running).
    func close() {
        for fd in [input, output, errors, exitDescriptor] where fd >= 0 { _ = Glibc.close(fd) }
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
