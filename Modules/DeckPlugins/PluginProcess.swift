import Glibc

/// A plugin's running process: started by ``SpawnedChild`` in a process group
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
    /// its working directory and the host's environment; with `state`, that
    /// folder is made first (``PluginStateFolder``) and named in `DECK_PLUGIN_STATE`.
    static func spawn(_ arguments: [String], in folder: String, state: String? = nil) throws(DeckPluginsError) -> PluginProcess {
        var environment: [String]?
        if let state {
            try PluginStateFolder.prepare(state)
            environment = PluginStateFolder.environment(naming: state)
        }
        do {
            let child = try SpawnedChild.spawn(arguments, workingDirectory: folder, input: .pipe, nonBlockingInput: true,
                                               environment: environment)
            return PluginProcess(pid: child.pid, input: child.input, output: child.output, errors: child.errors,
                                 exitDescriptor: child.exitDescriptor)
        } catch {
            let reason = error.code == ENOENT ? "\(error.reason) (in \(folder))" : error.reason
            throw .spawnFailed(program: error.program, reason: reason)
        }
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
