/// The timings and bounds of plugin supervision (PLUGINS.md §3). The
/// defaults are the contract's; tests shorten the timings.
public struct PluginPolicy: Hashable, Sendable {
    /// How long a started plugin has to answer `hello` with `ready`.
    public var readyTimeout: Duration = .seconds(5)
    /// The wait before the first restart after a failure; it doubles with
    /// each further failure in a row.
    public var firstRestartDelay: Duration = .seconds(1)
    /// The longest wait before a restart.
    public var maximumRestartDelay: Duration = .seconds(60)
    /// This many failures within ``failureWindow`` mark the plugin failed
    /// until the next reload.
    public var failureLimit = 5
    /// See ``failureLimit``.
    public var failureWindow: Duration = .seconds(60)
    /// A plugin that ran this long after `ready` before failing starts its
    /// restart delays from ``firstRestartDelay`` again.
    public var stableAfter: Duration = .seconds(60)
    /// A pipe to a running plugin closed (its output, its input): how long
    /// its exit has to show up before the closed pipe itself is the failure.
    /// A plugin that exits closes its pipes a moment before the exit is seen.
    public var closedPipeGrace: Duration = .milliseconds(200)
    /// After `shutdown`, how long a plugin has to exit before SIGTERM.
    public var shutdownGrace: Duration = .seconds(2)
    /// After SIGTERM, how long before SIGKILL.
    public var killGrace: Duration = .seconds(1)
    /// Lines waiting for a plugin that does not read its input, at most;
    /// more are dropped (and logged).
    public var maximumQueuedLines = 1024
    /// Bytes waiting for a plugin that does not read its input, at most.
    public var maximumQueuedBytes = 1 << 20
    /// Presses kept while a plugin starts (before its `ready`), at most.
    public var maximumHeldPresses = 64
    /// How long a press that arrives while its plugin restarts waits for it
    /// (issue 17 §2) before it is answered as unavailable: the first restart
    /// comes after 1 s, so a plugin that crashed once is back in time.
    public var restartWait: Duration = .seconds(2)
    /// Longest title a plugin may set, in UTF-8 bytes; longer ones are ignored.
    public var maximumTitleBytes = 1024
    /// Titles are broadcast at most this often per button; changes in between
    /// are coalesced into the latest (a plugin cannot flood the devices).
    public var titleInterval: Duration = .milliseconds(50)
    /// Bytes read from one plugin's output (and as many from its stderr) per
    /// loop turn, at most. Every line read is parsed, so this bounds what a
    /// plugin writing without end costs each turn, and so how long everyone
    /// else waits: 16 KiB is a few hundred lines, and a plugin that reads as
    /// fast as the loop turns still gets megabytes a second through.
    public var readBudget = 16 << 10
    /// Problem lines (invalid output, stderr) logged per plugin per
    /// ``logWindow`` before the rest are counted instead of logged.
    public var logBudget = 100
    /// See ``logBudget``.
    public var logWindow: Duration = .seconds(10)

    /// Where each plugin's state folder is made (`<root>/<id>`, 0700, named
    /// to it in `DECK_PLUGIN_STATE`); deckd sets `<its state folder>/plugins`.
    /// A relative root is taken against the host's working directory.
    /// nil: plugins get no state folder.
    public var stateRoot: String?

    /// The contract's defaults.
    public init() {}

    /// The state folder of plugin `id`, always absolute, or nil without a
    /// ``stateRoot``.
    func stateFolder(for id: String) -> String? {
        // A plugin runs in its own folder: `deckd --state .state` named a
        // relative root that pointed there, not at the host's state.
        stateRoot.map { absolutePath($0) + "/" + id }
    }

    /// The wait before restarting after `consecutiveFailures` failures in a row (≥ 1).
    func restartDelay(afterFailures consecutiveFailures: Int) -> Duration {
        var delay = firstRestartDelay
        for _ in 1..<max(1, consecutiveFailures) {
            delay *= 2
            if delay >= maximumRestartDelay { return maximumRestartDelay }
        }
        return min(delay, maximumRestartDelay)
    }
}
