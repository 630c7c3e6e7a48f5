#if canImport(Glibc)
import Glibc
#endif
import DeckDBus
import DeckPluginKit

/// The portal back end's bus thread: owns the sd-bus connection and the
/// ``PortalMachine``, sends the keys the main thread posts on the
/// ``PortalLink``, and reports each change of condition through `changed`
/// (which the plugin turns into its status and the buttons' titles).
final class PortalThread: Sendable {
    private let thread: BusThread
    private let link: PortalLink

    /// Starts the thread; it connects, runs the handshake and waits for keys.
    init(link: PortalLink, store: PortalTokenStore, log: @escaping @Sendable (PluginLogLevel, String) -> Void,
         changed: @escaping @Sendable (PortalCondition) -> Void) throws(KeysError) {
        self.link = link
        do throws(DBusError) {
            thread = try BusThread("portal thread") {
                PortalRunner(link: link, store: store, log: log, changed: changed).run()
            }
        } catch {
            throw .backEnd(error.description)
        }
    }

    /// Sends the keys still queued, closes the session and the bus, and waits for the thread.
    /// Never call it while holding a lock `changed` takes.
    func stop() {
        link.stop()
        thread.join()
    }
}

/// The loop of ``PortalThread``; lives and dies on that thread.
private final class PortalRunner {
    let link: PortalLink
    let store: PortalTokenStore
    let log: @Sendable (PluginLogLevel, String) -> Void
    let changed: @Sendable (PortalCondition) -> Void
    var machine = PortalMachine()
    var bus: DBusConnection?
    var waiting: [UInt64: PortalMachine.Step] = [:]

    init(link: PortalLink, store: PortalTokenStore, log: @escaping @Sendable (PluginLogLevel, String) -> Void,
         changed: @escaping @Sendable (PortalCondition) -> Void) {
        self.link = link
        self.store = store
        self.log = log
        self.changed = changed
    }

    /// A portal's messages are shallow (a vardict in a body): eight levels is room, and less for a peer posing as one to fill.
    static let limits = DBusLimits(stringBytes: 4096, arrayElements: 256, depth: 8)

    func run() {
        do throws(DBusError) {
            let bus = try DBusConnection(.session, limits: Self.limits)
            self.bus = bus
            let token = store.load()
            if store.folder == nil {
                log(.warning, "portal: the host gave no state folder (DECK_PLUGIN_STATE): consent is not remembered")
            }
            perform(machine.start(uniqueName: try bus.uniqueName(), restoreToken: token))
        } catch {
            lost("\(error)")
        }
        while true {
            if let bus {
                do throws(DBusError) {
                    for message in try bus.process() { dispatch(message) }
                } catch {
                    lost("\(error)")
                }
            }
            let (keys, stopped) = link.take()
            perform(machine.keys(keys))
            if stopped {
                perform(machine.stop())
                bus?.close(flushMilliseconds: 300)
                return
            }
            wait()
        }
    }

    /// Polls the bus (while it lives) and the wake-up pipe.
    private func wait() {
        var descriptors = [pollfd(fd: link.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var timeout: Int32 = -1
        if let bus {
            do throws(DBusError) {
                let state = try bus.pollState()
                descriptors.append(pollfd(fd: state.descriptor, events: state.events, revents: 0))
                timeout = state.timeoutMilliseconds
            } catch {
                lost("\(error)")
            }
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
    }

    private func dispatch(_ message: DBusMessage) {
        switch message.kind {
        case .signal:
            perform(machine.signal(message))
        case .reply(let cookie):
            if let step = waiting.removeValue(forKey: cookie) { perform(machine.reply(step, body: message.body)) }
        case .error(let cookie, let name, let text):
            if let step = waiting.removeValue(forKey: cookie) { perform(machine.refused(step, name: name, message: text)) }
        }
    }

    private func perform(_ actions: [PortalMachine.Action]) {
        for action in actions {
            do throws(DBusError) {
                switch action {
                case .subscribe(let rule):
                    try bus?.addMatch(rule)
                case .call(let call):
                    guard let bus else { continue }
                    let cookie = try bus.call(destination: PortalMachine.destination, path: call.path, interface: call.interface,
                                              member: call.member, arguments: call.arguments)
                    waiting[cookie] = call.step
                case .saveToken(let token):
                    if let problem = store.save(token) {
                        log(.warning, "portal: the restore token was not kept, so the desktop will ask again next time: \(problem)")
                    } else {
                        log(.info, "portal: consent remembered in \(store.folder ?? "")/\(PortalTokenStore.fileName)")
                    }
                case .changed(let condition):
                    link.condition = condition
                    log(condition.problem == nil || condition == .stopped || isStarting(condition) ? .info : .warning, condition.status)
                    // Stopping is not news for the buttons: the process ends, and its titles with it.
                    if condition != .stopped { changed(condition) }
                }
            } catch {
                lost("\(error)")
            }
        }
    }

    private func isStarting(_ condition: PortalCondition) -> Bool {
        if case .starting = condition { return true }
        return false
    }

    /// The connection is unusable: the condition says so and the bus is dropped.
    private func lost(_ reason: String) {
        bus?.close()
        bus = nil
        waiting = [:]
        perform(machine.busLost(reason))
    }
}
