#if canImport(Glibc)
import Glibc
#endif
import DeckDBus
import DeckPluginKit
import Synchronization

/// Brings XTest back when the X server returns: a thread that, while X11's
/// back end is down (the server went away, or was not up when the plugin
/// started), tries to open its display again every ``interval``, and once it
/// opens, makes it the back end (``KeysRunner/revived(_:plugin:)``). Without
/// it, only `deckctl restart keys` brought the keys back.
final class KeysRevival: Sendable {
    /// How often the display is tried: a person waits at most this long after
    /// the server is back, and a refused connection to a socket nobody listens
    /// on costs a few microseconds.
    static let interval = 2.0
    /// How often the thread looks whether it should stop: bounds the wait at the plugin's end.
    static let tick = 0.25

    private let stopped = Mutex(false)

    /// Starts the thread; nil (and a log line) when no thread can be started.
    init?(shared: KeysShared, plugin: PluginConnection) {
        do throws(DBusError) {
            _ = try BusThread("X11 revival thread") { [self] in run(shared: shared, plugin: plugin) }
        } catch {
            plugin.log("keys are not typed again by themselves when the X server comes back: \(error)", level: .warning)
            return nil
        }
    }

    /// Ends the thread at its next tick. Not joined: an open of a display
    /// whose server hangs may take long, and the plugin must end anyway.
    func stop() {
        stopped.withLock { $0 = true }
    }

    private func run(shared: KeysShared, plugin: PluginConnection) {
        let ticks = Int(Self.interval / Self.tick)
        var count = 0
        while !stopped.withLock({ $0 }) {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.tick * 1e9))
            nanosleep(&pause, nil)
            count += 1
            guard count % ticks == 0 else { continue }
            shared.runner.withLock { runner in
                // Under the lock, as every use of Xlib here: a refused connection
                // returns at once, and a server that is up answers within moments.
                guard !stopped.withLock({ $0 }), let runner, let display = runner.revivalTarget(plugin: plugin),
                      let keyboard = try? X11Keyboard(display: display) else { return }
                runner.revived(keyboard, plugin: plugin)
            }
        }
    }
}
