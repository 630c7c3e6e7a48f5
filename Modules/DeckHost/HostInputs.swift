import DeckTransport

/// What feeds the event loop besides the connections' lines, each stopped
/// when the host stops: the listeners, the signalfd, the layouts folder's
/// watch and the lock probe. References only; `Host.start` sets them.
struct HostInputs {
    var listeners: [Listener] = []
    var signals: SignalSource?
    var watcher: ProfileWatcher?
    var probe: LockProbe?
}
