import DeckCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// Where the host's control socket is, by the same rule deckd uses (CLI.md):
/// `$XDG_RUNTIME_DIR/deckd/control.sock` when `XDG_RUNTIME_DIR` is set to an
/// absolute path, else `/tmp/deckd-UID/control.sock`.
public enum ControlSocket {
    /// The default path for a user with these environment variables.
    ///
    /// An empty or relative `XDG_RUNTIME_DIR` is ignored, as the XDG base
    /// directory specification says to ignore relative paths.
    public static func defaultPath(environment: [String: String], userID: UInt32) -> String {
        // Character for character what deckd computes (HostConfiguration), so
        // the path in deckctl's messages is the one deckd printed.
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/deckd/control.sock"
        }
        return "/tmp/deckd-\(userID)/control.sock"
    }

    /// The default path for this process.
    public static var defaultPath: String {
        defaultPath(environment: ProcessEnvironment.variables, userID: getuid())
    }
}
