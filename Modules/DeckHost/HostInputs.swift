import DeckTransport

/// What feeds the event loop besides the connections' lines, each stopped
/// when the host stops: the listeners, the signalfd, the layouts folder's
/// watch and the lock probe. References only; `Host.start` sets them.
struct HostInputs {
    /// The TCP port and the control socket, closed first when the host stops.
    var listeners: [Listener] = []
    /// SIGTERM, SIGINT and SIGHUP, read on the loop.
    var signals: SignalSource?
    /// The layouts folder's inotify watch (nil when it could not be set up).
    var watcher: ProfileWatcher?
    /// `--lock-probe`, when given.
    var probe: LockProbe?
}
