import DeckModel
import DeckPluginKit
import DeckProfiles
import DeckProtocol
import DeckTransport
import Glibc

/// Every plugin process of the host (PLUGINS.md): one supervisor per
/// installed plugin, lazy start, press routing, titles, restarts, reloads
/// and shutdown. Create and use it only on the event loop's thread; it
/// reports through ``Events``, also on that thread.
///
/// What to tell which plugin is the host's rules' (DeckHost's `HostState`):
/// they hand it each plugin's buttons when they change
/// (``setButtons(_:for:)``), each press of a plugin button
/// (``press(plugin:_:done:)``), the catalog a reload read, and shutdown. A
/// plugin starts when it first has a button, and keeps running.
public final class PluginManager {
    /// What the manager reports, on the loop thread.
    public struct Events {
        /// A line for the host's log (`plugin 'counter' is ready`).
        public var log: (PluginLogLevel, String) -> Void
        /// Broadcast `buttonState` for this slot (PROTOCOL.md §8); nil: back to the name.
        public var titleChanged: (_ page: Int, _ index: Int, _ title: String?) -> Void
        /// A plugin's state changed (for a `plugin` event to subscribers).
        public var statusChanged: (PluginStatus) -> Void
        /// A plugin sent `setState`, `setImage`, `showAlert` or `showOk`
        /// (docs/faces.md §3) for these of its live buttons (its `for`
        /// target already matched; never empty).
        public var faceMessage: (_ plugin: String, _ buttons: [PluginButton], _ message: PluginMessage) -> Void
        /// A plugin's process ended: the faces it set mean nothing now.
        public var processEnded: (_ plugin: String) -> Void

        /// Collects the callbacks.
        public init(log: @escaping (PluginLogLevel, String) -> Void,
                    titleChanged: @escaping (_ page: Int, _ index: Int, _ title: String?) -> Void,
                    statusChanged: @escaping (PluginStatus) -> Void,
                    faceMessage: @escaping (_ plugin: String, _ buttons: [PluginButton], _ message: PluginMessage) -> Void = { _, _, _ in },
                    processEnded: @escaping (_ plugin: String) -> Void = { _ in }) {
            self.log = log
            self.titleChanged = titleChanged
            self.statusChanged = statusChanged
            self.faceMessage = faceMessage
            self.processEnded = processEnded
        }
    }

    /// A slot of the live layout.
    struct Slot: Hashable, Comparable {
        var page: Int
        var index: Int
        static func < (lhs: Slot, rhs: Slot) -> Bool { (lhs.page, lhs.index) < (rhs.page, rhs.index) }
    }

    let loop: EventLoop
    /// The plugins folders, in the order they are searched.
    public let folders: [String]
    let searchPath: String?
    let policy: PluginPolicy
    let hostName: String
    let hostVersion: String
    let events: Events
    /// The manifests found at the last scan (start or reload).
    public private(set) var catalog: PluginCatalog
    var supervisors: [String: PluginSupervisor] = [:]
    /// Supervisors being stopped after a reload changed or removed their
    /// plugin; a new process of the same id waits for the old one to go.
    var retiring: [ObjectIdentifier: PluginSupervisor] = [:]
    /// Each plugin's buttons in the live layout, as the host last set them
    /// (plugins not installed included: a reload that installs one hands
    /// them on).
    var liveButtons: [String: [PluginButton]] = [:]
    /// The titles plugins have set, by slot, with the button each was set on.
    var titles: [Slot: (plugin: String, button: PluginButton, title: String)] = [:]
    /// What devices were last told, by slot (absent: the button's name).
    var shown: [Slot: String] = [:]
    var pendingTitles: Set<Slot> = []
    var titleTimer: LoopTimer?
    var stopping: (() -> Void)?
    var isShuttingDown = false

    /// Gets ready with the plugins of `catalog` (nil: scans `folders` now);
    /// no plugin starts before ``setButtons(_:for:)`` gives it a button. The
    /// catalog's problems are the host's to report.
    ///
    /// Also makes SIGPIPE ignored in this process: writing to a plugin whose
    /// end of the pipe is closed must be an EPIPE error, not the host's death.
    /// (Plugins start with SIGPIPE at its default again.)
    public init(loop: EventLoop, folders: [String], searchPath: String?, catalog: PluginCatalog? = nil,
                hostName: String, hostVersion: String, policy: PluginPolicy = PluginPolicy(), events: Events) {
        signal(SIGPIPE, SIG_IGN)
        self.loop = loop
        self.folders = folders
        self.searchPath = searchPath
        self.policy = policy
        self.hostName = hostName
        self.hostVersion = hostVersion
        self.events = events
        self.catalog = catalog ?? PluginCatalog.scan(folders: folders, searchPath: searchPath)
        for manifest in self.catalog.manifests { add(manifest) }
    }

    // MARK: What the host reports

    /// Plugin `id`'s buttons in the live layout are now `buttons`: the plugin
    /// is sent them (once it is ready), titles it set on slots that no longer
    /// hold the button they were set on are cleared (the button moved, was
    /// swapped, edited or removed: its title would label another button),
    /// and it starts if it now has buttons and is not running yet.
    public func setButtons(_ buttons: [PluginButton], for id: String) {
        liveButtons[id] = buttons.isEmpty ? nil : buttons
        for (slot, entry) in titles where entry.plugin == id && !buttons.contains(entry.button) {
            titles[slot] = nil
            pendingTitles.insert(slot)
        }
        showTitles()
        supervisors[id]?.setButtons(buttons)
        startNeeded()
    }

    /// Hands a press of a `{plugin: ID, …}` button to its plugin; `done` is
    /// told (at once, or when a starting plugin is ready) whether it got there.
    public func press(plugin id: String, _ press: PluginPress, done: @escaping (PluginPressResult) -> Void) {
        guard !isShuttingDown else { return done(.unavailable("is stopping with the host")) }
        guard let supervisor = supervisors[id] else { return done(.unavailable(catalog.unavailableReason(id, folders: folders))) }
        supervisor.deliver(press, mayStart: !isRetiring(id), done: done)
    }

    /// Reads the plugins folders again (on the calling thread) and applies
    /// what was found with ``reload(_:)``.
    @discardableResult
    public func reload() -> [FileProblem] {
        reload(PluginCatalog.scan(folders: folders, searchPath: searchPath))
    }

    /// Applies a fresh scan of the plugins folders (made off the loop): new
    /// plugins become available, changed ones are restarted, removed or
    /// broken ones stopped, and failed ones may start again. Returns the
    /// problems of every manifest (reporting them, and the plugins that
    /// became unavailable, is the host's).
    @discardableResult
    public func reload(_ fresh: PluginCatalog) -> [FileProblem] {
        guard !isShuttingDown else { return catalog.problems }
        var carried: [String: (restarts: Int, lastExit: String?)] = [:]
        for (id, supervisor) in supervisors {
            if fresh.manifest(id: id) == supervisor.manifest {
                supervisor.reset()
            } else {
                if supervisor.starts > 0 { carried[id] = (supervisor.status.restarts + 1, supervisor.lastExit) }
                retire(supervisor)
            }
        }
        for manifest in fresh.manifests where supervisors[manifest.id] == nil {
            add(manifest)
            if let (restarts, lastExit) = carried[manifest.id] {
                supervisors[manifest.id]?.restartsBefore = restarts
                supervisors[manifest.id]?.lastExit = lastExit
            }
        }
        catalog = fresh
        startNeeded()
        return fresh.problems
    }

    /// `deckctl restart PLUGIN`: stops the plugin (`shutdown`, then signals
    /// as always) and starts it again if the live layout uses it; a failed
    /// one gets a clean slate. With `reset` (`deckctl plugins ID --reset`)
    /// its state folder is emptied before the new process starts, so it
    /// forgets what it kept (the keys plugin asks for consent again). False
    /// when no installed plugin has that id.
    public func restart(_ id: String, reset: Bool = false) -> Bool {
        guard !isShuttingDown, let supervisor = supervisors[id] else { return false }
        if reset, let folder = policy.stateFolder(for: id) {
            if let problem = PluginStateFolder.empty(folder) {
                events.log(.warning, "plugin '\(id)': its state folder was not emptied: \(problem)")
            } else {
                events.log(.info, "plugin '\(id)': emptied its state folder \(folder)")
            }
        }
        let restarts = supervisor.status.restarts + (supervisor.starts > 0 ? 1 : 0)
        let lastExit = supervisor.lastExit
        retire(supervisor, reason: "is being restarted by deckctl restart")
        add(supervisor.manifest)
        supervisors[id]?.restartsBefore = restarts
        supervisors[id]?.lastExit = lastExit
        events.log(.info, "restarting plugin '\(id)'")
        startNeeded()
        return true
    }

    /// Stops every plugin: `shutdown`, SIGTERM after `grace`, SIGKILL after
    /// `killGrace` more (nil: the policy's 2 s and 1 s; the host passes less
    /// to fit its own exit within 2 s). `done` is called on the loop once
    /// every plugin process is gone.
    public func shutdown(grace: Duration? = nil, killGrace: Duration? = nil, _ done: @escaping () -> Void) {
        isShuttingDown = true
        stopping = done
        for supervisor in Array(supervisors.values) + Array(retiring.values) {
            supervisor.stop(grace: grace, killGrace: killGrace)
        }
        finishShutdownIfDone()
    }

    /// SIGKILL to every plugin process still there, reaping each: for after
    /// the event loop has stopped (nothing is reported any more).
    public func killRemaining() {
        for supervisor in Array(supervisors.values) + Array(retiring.values) { supervisor.killNow() }
    }

    // MARK: What the host asks

    /// Every plugin's state for `deckctl status`, by id: installed ones from
    /// their supervisor, broken manifests as `unavailable`.
    public var statuses: [PluginStatus] {
        var list = supervisors.values.map(\.status)
        for entry in catalog.unavailable where supervisors[entry.id] == nil {
            list.append(PluginStatus(id: entry.id, state: "unavailable", message: entry.reason))
        }
        return list.sorted { $0.id < $1.id }
    }

    /// The titles devices are showing now, for a device that connects later.
    public var currentTitles: [(page: Int, index: Int, title: String)] {
        shown.keys.sorted().compactMap { slot in shown[slot].map { (slot.page, slot.index, $0) } }
    }

    /// True once ``shutdown(_:)`` has finished.
    public var isStopped: Bool { isShuttingDown && supervisors.isEmpty && retiring.isEmpty }

    // MARK: Internals

    private func add(_ manifest: PluginManifest) {
        let hello = PluginHello(hostName: hostName, hostVersion: hostVersion, plugin: manifest.id)
        let supervisor = PluginSupervisor(manifest: manifest, loop: loop, policy: policy, hello: hello)
        supervisor.delegate = self
        supervisor.setButtons(liveButtons[manifest.id] ?? [])
        supervisors[manifest.id] = supervisor
    }

    private func retire(_ supervisor: PluginSupervisor, reason: String = "is being restarted because its manifest or program changed") {
        supervisors[supervisor.id] = nil
        retiring[ObjectIdentifier(supervisor)] = supervisor
        supervisor.failHeld(reason)
        supervisor.stop()
    }

    private func isRetiring(_ id: String) -> Bool {
        retiring.values.contains { $0.id == id }
    }

    /// Starts every plugin the live layout uses that is not running yet.
    func startNeeded() {
        guard !isShuttingDown else { return }
        for id in liveButtons.keys.sorted() where !isRetiring(id) { supervisors[id]?.start() }
    }

    func finishShutdownIfDone() {
        guard isShuttingDown, supervisors.isEmpty, retiring.isEmpty, let done = stopping else { return }
        stopping = nil
        titleTimer?.cancel()
        titleTimer = nil
        done()
    }
}
