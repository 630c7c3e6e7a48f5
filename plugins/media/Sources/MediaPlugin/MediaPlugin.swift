import DeckPluginKit
import DeckDBus

/// The `media` plugin (plugins/media, docs/plugins.md): MPRIS players on the
/// session bus behind play-pause, next, previous, stop and seek buttons that
/// show the player's state, title and art.
///
/// The host's lines are read on the calling thread (``PluginMain``); the
/// bus lives on a thread of its own, started at `hello` and joined at
/// `shutdown` or the end of input.
public enum MediaPlugin {
    /// Runs the plugin until the host stops it; returns the exit status.
    public static func run() -> Int32 {
        let inbox: MediaInbox
        do {
            inbox = try MediaInbox(for: "bus thread")
        } catch {
            PluginConnection().log("cannot start: \(error)", level: .error)
            return 1
        }
        var thread: BusThread?
        let ending = PluginMain.run { event, plugin in
            switch event {
            case .hello:
                thread = try BusThread("bus thread") { MediaRunner(plugin: plugin, inbox: inbox).run() }
            case .buttons, .press:
                inbox.post(event)
            case .shutdown:
                break
            }
        }
        inbox.stop()
        thread?.join()
        return ending.exitStatus
    }
}
