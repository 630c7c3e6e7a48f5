import DeckPluginKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `sound` plugin (docs/plugins.md, "sound"): mute and volume buttons
/// for the default output and input, a named device or an application's
/// streams, through libpulse; each button shows the live mute state and,
/// for `volume`, the level as its title.
///
/// ```swift
/// let sound = SoundPlugin()
/// PluginMain.run { event, plugin in sound.handle(event, plugin) }
/// sound.stop()
/// ```
///
/// libpulse runs on a thread of the plugin's own, started at `hello`; the
/// host's events reach it through a queue, and it writes faces and log
/// lines to the plugin connection (which is safe from any thread).
public final class SoundPlugin: Sendable {
    private let inbox = SoundInbox()
    private let thread = Mutex<pthread_t?>(nil)
    /// Set once the first try to reach the sound server has ended.
    private let firstTry = ReadySignal()
    /// The longest `hello` waits for that try before the plugin says `ready`
    /// anyway (PLUGINS.md allows 5 s): a local server answers in
    /// milliseconds, and a refused or absent one fails as fast.
    public static let readyWait: Duration = .seconds(2)

    /// A plugin that has not started.
    public init() {}

    /// Hands one host event to the plugin (from ``PluginMain``'s closure).
    public func handle(_ event: PluginEvent, _ plugin: PluginConnection) {
        switch event {
        case .hello:
            start(plugin)
            // `ready` (sent when this returns) means usable: a press the host
            // held for it (a restart) finds the server, not a connection on its way.
            firstTry.wait(upTo: Self.readyWait)
        case .buttons(let buttons): inbox.post(.buttons(buttons))
        case .press(let press): inbox.post(.press(press))
        case .shutdown: stop()
        }
    }

    /// Ends the libpulse thread and waits for it; a second call does nothing.
    public func stop() {
        inbox.stop()
        guard let running = thread.withLock({ thread in defer { thread = nil }; return thread }) else { return }
        pthread_join(running, nil)
    }

    private func start(_ plugin: PluginConnection) {
        thread.withLock { thread in
            guard thread == nil else { return }
            let body = Unmanaged.passRetained(LoopBody(inbox: inbox, plugin: plugin, firstTry: firstTry)).toOpaque()
            var made = pthread_t()
            let status = pthread_create(&made, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<LoopBody>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, body)
            if status == 0 {
                thread = made
            } else {
                Unmanaged<LoopBody>.fromOpaque(body).release()
                firstTry.set()
                plugin.log("\(SoundError.library("could not start its thread (error \(status))")); sound buttons stay as they are",
                           level: .error)
            }
        }
        inbox.post(.start)
    }
}

/// What the libpulse thread runs.
private final class LoopBody: Sendable {
    let inbox: SoundInbox
    let plugin: PluginConnection
    let firstTry: ReadySignal

    init(inbox: SoundInbox, plugin: PluginConnection, firstTry: ReadySignal) {
        self.inbox = inbox
        self.plugin = plugin
        self.firstTry = firstTry
    }

    func run() {
        let plugin = plugin
        let output = PulseClient.Output(
            show: { page, index, face in SoundPlugin.present(face, page: page, index: index, on: plugin) },
            alert: { page, index in plugin.showAlert(for: .slot(page: page, index: index)) },
            log: { level, message in plugin.log(message, level: level) })
        do {
            let client = try PulseClient(output: output, firstTryEnded: { [firstTry] in firstTry.set() })
            client.run(inbox)
        } catch {
            firstTry.set()
            plugin.log("\(error); sound buttons stay as they are", level: .error)
        }
    }
}

extension SoundPlugin {
    /// Sends a face to the host: its state and its title, one line each
    /// (the host keeps the newest of each per button and frame).
    static func present(_ face: SoundFace, page: Int, index: Int, on plugin: PluginConnection) {
        let target = ButtonTarget.slot(page: page, index: index)
        plugin.setState(face.state?.rawValue, for: target)
        plugin.setTitle(face.title, for: target)
    }
}
