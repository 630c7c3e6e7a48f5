#if canImport(Glibc)
import Glibc
#endif
import DeckPluginKit
import Synchronization

/// The keys plugin's program: ``run()`` is all its `main.swift` calls.
public enum KeysPluginMain {
    /// Runs until `shutdown` or the host goes away; every held key comes up
    /// before it returns. Returns the exit status.
    ///
    /// The host's events are handled on the calling thread. The portal back
    /// end also has a bus thread, whose changes of condition (consent given,
    /// denied, the session closed) reach the same runner under its lock.
    public static func run(vocabulary path: String = "keysyms.txt") -> Int32 {
        let names = KeyNames(vocabulary: KeyNames.words(inFile: path))
        let shared = KeysShared()
        var portal: PortalThread?
        var revival: KeysRevival?
        let ending = PluginMain.run { event, plugin in
            if case .hello = event {
                let x11 = KeyboardBackEnds.x11Display()
                let link = shared.runner.withLock { runner -> PortalLink? in
                    let chosen = KeyboardBackEnds.choose(note: { plugin.log($0, level: .info) })
                    switch chosen {
                    case .success(let backEnd):
                        plugin.log("keyboard back end: \(backEnd.summary)")
                        runner = KeysRunner(core: KeysCore(names: names), backEnd: backEnd, x11Display: x11)
                        return (backEnd as? PortalKeyboard)?.link
                    case .failure(let problem):
                        plugin.log("\(problem)", level: .warning)
                        runner = KeysRunner(core: KeysCore(names: names, problem: problem), backEnd: nil, problem: problem,
                                            x11Display: x11)
                        return nil
                    }
                }
                if x11 != nil, link == nil { revival = KeysRevival(shared: shared, plugin: plugin) }
                if let link {
                    portal = try PortalThread(link: link, store: .fromEnvironment(), log: { plugin.log($1, level: $0) },
                                              changed: { condition in
                                                  shared.runner.withLock { $0?.backEndChanged(condition.problem, plugin: plugin) }
                                              })
                }
            }
            shared.runner.withLock { runner in
                guard let runner else { return }
                switch event {
                case .hello:
                    break
                case .buttons(let buttons):
                    runner.perform(runner.core.buttons(buttons), plugin: plugin, button: nil)
                case .press(let press):
                    runner.perform(runner.core.press(press), plugin: plugin, button: press.button)
                case .shutdown:
                    runner.perform(runner.core.end(), plugin: plugin, button: nil)
                }
                runner.report(to: plugin)
            }
        }
        revival?.stop()
        shared.runner.withLock { runner in
            runner?.perform(runner?.core.end() ?? [], plugin: PluginConnection(output: -1), button: nil)
        }
        // Outside the lock: the bus thread may be waiting for it to report its last change.
        portal?.stop()
        return ending.exitStatus
    }
}

/// The runner, shared by the host's thread and the portal's bus thread.
final class KeysShared: Sendable {
    let runner = Mutex<KeysRunner?>(nil)
}

/// Performs a core's actions on a back end and the host connection.
final class KeysRunner {
    var core: KeysCore
    private(set) var backEnd: KeyboardBackEnd?
    /// Why no back end runs, when none does.
    private(set) var problem: KeysError?
    /// The X display to open again when the X server went away or was not up
    /// at start (``KeysRevival``); nil when the back end is not X11's to open.
    let x11Display: String?
    /// The status last sent, so an unchanged one is not sent again after every event.
    private var reported: String?

    init(core: KeysCore, backEnd: KeyboardBackEnd?, problem: KeysError? = nil, x11Display: String? = nil) {
        self.core = core
        self.backEnd = backEnd
        self.problem = problem
        self.x11Display = x11Display
    }

    /// Asked by the revival thread, under the lock: the display to open now,
    /// if X11's back end is down. A server that went away is first shown on
    /// every button (and keys come up), so nobody has to press to find out.
    func revivalTarget(plugin: PluginConnection) -> String? {
        guard let x11Display else { return nil }
        guard let backEnd else { return x11Display }
        guard let keyboard = backEnd as? X11Keyboard else { return nil }
        keyboard.checkConnection()
        guard keyboard.isLost else { return nil }
        backEndChanged(.backEnd(keyboard.gone), plugin: plugin)
        return x11Display
    }

    /// The revival thread opened the display again: it types from now on,
    /// and the buttons get their names back.
    func revived(_ keyboard: X11Keyboard, plugin: PluginConnection) {
        backEnd = keyboard
        problem = nil
        plugin.log("keyboard back end: \(keyboard.summary), opened again")
        backEndChanged(nil, plugin: plugin)
    }

    /// What `deckctl plugins keys` shows: the back end and its health, or why there is none.
    var status: String {
        backEnd?.status ?? problem.map { "\($0)" } ?? "no keyboard back end"
    }

    /// The portal's condition changed: the buttons show it (or get their
    /// titles back), keys come up when it can no longer type, and the status follows.
    func backEndChanged(_ problem: KeysError?, plugin: PluginConnection) {
        perform(core.backEndChanged(problem: problem, buttons: plugin.buttons), plugin: plugin, button: nil)
        report(to: plugin)
    }

    /// Sends the status when it changed (first after `hello`; again when the X server goes away).
    func report(to plugin: PluginConnection) {
        let now = status
        guard now != reported else { return }
        reported = now
        _ = plugin.setStatus(now)
    }

    func perform(_ actions: [KeysAction], plugin: PluginConnection, button: PluginButtonReference?) {
        for action in actions {
            do throws(KeysError) {
                switch action {
                case .tap(let chords): try backEnd?.tap(chords)
                case .hold(let key, let chords): try backEnd?.hold(chords, for: key)
                case .up(let key): backEnd?.release(key)
                case .type(let text): try backEnd?.type(text)
                case .releaseAll: backEnd?.releaseAll()
                case .setTitle(let reference, let title): plugin.setTitle(title, for: reference)
                case .alert(let reference): plugin.showAlert(for: reference)
                case .log(let level, let message): plugin.log(message, level: level)
                }
            } catch {
                let failure = button.map { core.failed(error, on: $0) } ?? [.log(.warning, "\(error)")]
                perform(failure, plugin: plugin, button: nil)
            }
        }
    }
}

