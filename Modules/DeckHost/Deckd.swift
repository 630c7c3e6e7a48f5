import DeckCommandLine
import Glibc

/// `deckd`'s `main`: parses the command line, blocks the signals the host
/// reads, runs the host, and returns the exit status.
public enum Deckd {
    /// Runs `deckd` with this process's command line and environment.
    public static func main() -> Int32 {
        keepInheritedDescriptorsFromChildren()
        return main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.variables)
    }

    /// Marks every descriptor deckd inherited beyond its standard streams
    /// close-on-exec. A parent that leaks one (a test runner's socket, a
    /// shell's extra redirection) would otherwise pass it on to every
    /// action and plugin, and a plugin that outlives a killed host would
    /// keep that parent waiting for the descriptor to close.
    static func keepInheritedDescriptorsFromChildren() {
        guard let folder = opendir("/proc/self/fd") else { return }
        defer { closedir(folder) }
        let own = dirfd(folder)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name), fd > 2, fd != own else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Runs `deckd` with `arguments` (without the program name).
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        blockHostSignals()
        // Under a file-size limit (`ulimit -f`, systemd's LimitFSIZE=) a write
        // past it raises SIGXFSZ, whose default ends the process; ignored, the
        // write fails with EFBIG and the host refuses that one snapshot like
        // a full disk. Programs deckd starts get the default back (SpawnedChild).
        signal(SIGXFSZ, SIG_IGN)
        switch Result(catching: { () throws(HostError) in try HostArguments.parse(arguments, environment: environment) }) {
        case .success(.help(let text)):
            print(text)
            return ExitStatus.success.rawValue
        case .success(.run(let configuration)):
            return Host.run(configuration, environment: environment).rawValue
        case .failure(let error):
            // The sentence already ends by pointing at `deckd --help` or at the option meant.
            let line = "deckd: \(error)\n"
            _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            return error.exitStatus.rawValue
        }
    }
}
