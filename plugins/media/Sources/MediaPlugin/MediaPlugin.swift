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
    /// The longest `hello` waits for the first look at the bus before `ready`
    /// (PLUGINS.md allows 5 s): a session bus answers in milliseconds.
    public static let readyWait: Duration = .seconds(2)

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
                let firstLook = ReadySignal()
                thread = try BusThread("bus thread") { MediaRunner(plugin: plugin, inbox: inbox, firstLook: firstLook).run() }
                // `ready` (sent when this returns) means usable: a press the host held
                // for it (a restart) finds the players, not "no MPRIS player".
                firstLook.wait(upTo: readyWait)
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
