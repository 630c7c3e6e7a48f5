import DeckPlugins
import DeckTransport

/// What `Host.start` sets up around the core and stops when the host stops:
/// the listeners and how devices reach them, the signalfd, the layouts
/// folder's watch, the lock probe and the plugins. References, and one small
/// value kept beside them: the ``Reachability`` learnt as the listeners
/// open.
struct HostInputs {
    /// The TCP port, the web listener and the control socket, closed first when the host stops.
    var listeners: [Listener] = []
    /// Where the web listener is bound and the certificate it serves (pairing links, `status`).
    var reachability = Reachability()
    /// SIGTERM, SIGINT and SIGHUP, read on the loop.
    var signals: SignalSource?
    /// The layouts folder's inotify watch (nil when it could not be set up).
    var watcher: ProfileWatcher?
    /// `--lock-probe`, when given.
    var probe: LockProbe?
    /// Every plugin (started in `Host.start`, after the listeners).
    var plugins: PluginManager?
    /// The live layout's `follow` commands (started with the plugins).
    var follows: FollowRunner?
}
