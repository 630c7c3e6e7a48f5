import Glibc

/// The open-file limit deckd needs for its connection limits.
///
/// Each connection is a descriptor: the TCP and web listeners share
/// `--max-connections` (256), the control socket has as many again, and
/// deckd keeps a few of its own (listeners, the signalfd, the folder watch,
/// the state folder, plugins' pipes). A session whose soft limit is lower
/// (1024 is usual, but a service manager or `ulimit -n` may set less) made
/// `accept` fail before the connection limits did: silent connections locked
/// deckctl out with "no host is answering" (an audit's finding). So the soft
/// limit is raised towards the hard one at start, and what cannot be had is
/// said once in the log.
enum FileLimit {
    /// Descriptors deckd keeps besides connections, with room for plugins and disk work.
    static let ownDescriptors = 64

    /// What `maxConnections` needs.
    static func needed(maxConnections: Int) -> Int {
        2 * maxConnections + ownDescriptors
    }

    /// Raises the soft limit to what is needed (the hard limit at most);
    /// returns a warning when even that is too little.
    static func raise(maxConnections: Int) -> String? {
        let wanted = needed(maxConnections: maxConnections)
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_RESOURCE, &limit) == 0 else { return nil }
        let hard = limit.rlim_max == rlim_t.max ? rlim_t(wanted) : limit.rlim_max  // rlim_t.max: RLIM_INFINITY
        if limit.rlim_cur < rlim_t(wanted), limit.rlim_cur < hard {
            var raised = limit
            raised.rlim_cur = min(rlim_t(wanted), hard)
            if setrlimit(RLIMIT_NOFILE_RESOURCE, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur < rlim_t(wanted) else { return nil }
        return "deckd may open only \(limit.rlim_cur) files, and --max-connections \(maxConnections) needs about \(wanted) "
            + "(the device and web listeners' connections, the control socket's as many, and deckd's own); "
            + "raise the limit (ulimit -n, or LimitNOFILE= in the service) or lower --max-connections"
    }

    /// `RLIMIT_NOFILE` as Glibc's `getrlimit` takes it.
    private static var RLIMIT_NOFILE_RESOURCE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
}
