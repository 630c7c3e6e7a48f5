import DeckPluginKit

/// The `obs` plugin (docs/plugins.md, "obs"): the host's events on the
/// calling thread, obs-websocket on a thread of its own started at `hello`.
public enum ObsPlugin {
    /// Runs the plugin until the host says `shutdown` or goes away; returns the exit status.
    public static func run() -> Int32 {
        let inbox = ObsInbox()
        var thread: ObsThread?
        let ending = PluginMain.run { event, plugin in
            switch event {
            case .hello:
                // The runner is made and used on its own thread only; it writes through the
                // same connection as PluginMain, whose lock keeps lines whole.
                thread = thread ?? ObsThread { ObsRunner(plugin: plugin, inbox: inbox).run() }
            case .buttons(let buttons): inbox.post(buttons: buttons)
            case .press(let press): inbox.post(press: press)
            case .shutdown: break
            }
        }
        inbox.postStop()
        thread?.join()
        return ending.exitStatus
    }
}
