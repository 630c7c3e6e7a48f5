#if canImport(Glibc)
import Glibc
#endif
import DeckPluginKit
import DeckDBus

/// The bus thread: owns the sd-bus connection and the ``MediaState``,
/// waits in `poll` on the bus socket and the inbox, and performs the
/// machine's actions. Reconnects with backoff (1 s doubling to 30 s) when
/// the bus goes away; the buttons show `no-player` meanwhile.
final class MediaRunner {
    let plugin: PluginConnection
    let inbox: MediaInbox
    private var state = MediaState()
    private var bus: DBusConnection?
    private var requests: [UInt64: MediaState.Request] = [:]
    private var retryDelay: Int64 = 1000
    private var retryAt: Int64 = 0
    private var lastFailure = ""
    /// A connection that worked was lost and is not back yet.
    private var lostAConnection = false
    var art = ArtState()
    /// Started at the first http(s) art; stopped when the loop ends.
    var fetcher: ArtFetcher?
    let fetchLimits: ArtFetcher.Limits
    /// Set once the first look at the bus has ended: connected with every
    /// player found and read, or not connected (the plugin says `ready` then).
    let firstLook: ReadySignal

    init(plugin: PluginConnection, inbox: MediaInbox, fetchLimits: ArtFetcher.Limits = ArtFetcher.Limits(),
         firstLook: ReadySignal = ReadySignal()) {
        self.plugin = plugin
        self.inbox = inbox
        self.fetchLimits = fetchLimits
        self.firstLook = firstLook
    }

    /// Runs until the inbox says stop.
    func run() {
        connect()
        while true {
            var descriptors = [pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            var timeout: Int32 = -1
            if let bus, let poll = try? bus.pollState() {
                descriptors.append(pollfd(fd: poll.descriptor, events: poll.events, revents: 0))
                timeout = poll.timeoutMilliseconds
            } else {
                timeout = Int32(clamping: max(0, retryAt - Self.nowMilliseconds()))
            }
            _ = descriptors.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
            let (events, stopped) = inbox.take()
            if stopped { break }
            for event in events {
                switch event {
                case .host(.buttons(let buttons)):
                    perform(art.keep(only: Set(buttons.map { MediaState.Slot(page: $0.page, index: $0.index) })))
                    feed(.buttons(buttons))
                case .host(.press(let press)): feed(.press(press))
                case .host(.hello), .host(.shutdown): break
                case .art(let url, let result): perform(art.loaded(url, result))
                }
            }
            if let bus {
                do {
                    for message in try bus.process() { route(message) }
                } catch {
                    lost(error.description)
                }
            } else if Self.nowMilliseconds() >= retryAt {
                connect()
            }
            // The names listed and every question about them answered: the players are known.
            if state.listedNames, requests.isEmpty { firstLook.set() }
        }
        fetcher?.stop()
        bus?.close(flushMilliseconds: 500)
        bus = nil
    }

    private func connect() {
        do {
            let opened = try DBusConnection(.session)
            try opened.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'")
            try opened.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                                + "path='/org/mpris/MediaPlayer2'")
            bus = opened
            retryDelay = 1000
            if !lastFailure.isEmpty { plugin.log("connected to the session bus again") }
            lastFailure = ""
            lostAConnection = false
            feed(.connected)
        } catch {
            lost(error.description)
        }
    }

    private func lost(_ reason: String) {
        let wasConnected = bus != nil
        bus?.close()
        bus = nil
        requests = [:]
        if wasConnected {
            // The state's warning says the bus is gone: one warning for it (docs/plugins.md).
            lostAConnection = true
            lastFailure = reason
        } else if reason != lastFailure {
            // While a lost connection is being tried again, other reasons are news, not alarms.
            plugin.log("\(reason); trying again every \(retryDelay / 1000) s up to 30 s", level: lostAConnection ? .info : .warning)
            lastFailure = reason
        }
        retryAt = Self.nowMilliseconds() + retryDelay
        retryDelay = min(retryDelay * 2, 30_000)
        feed(.disconnected(reason: reason))
        firstLook.set()  // no bus: a press is answered "no session bus" at once, as it is
    }

    private func route(_ message: DBusMessage) {
        var request: MediaState.Request?
        switch message.kind {
        case .reply(let cookie), .error(let cookie, _, _): request = requests.removeValue(forKey: cookie)
        case .signal: request = nil
        }
        let (input, log) = MediaState.input(for: message, request: request)
        if let log { plugin.log(log, level: .warning) }
        if let input { feed(input) }
    }

    private func feed(_ input: MediaState.Input) {
        for action in state.handle(input) { perform(action) }
    }

    private func perform(_ action: MediaState.Action) {
        switch action {
        case .listNames:
            ask(.listNames, MediaState.busName, "/org/freedesktop/DBus", MediaState.busName, "ListNames")
        case .askOwner(let name):
            ask(.owner(name), MediaState.busName, "/org/freedesktop/DBus", MediaState.busName, "GetNameOwner", [.string(name)])
        case .askProperties(let name):
            ask(.properties(name), name, MediaState.objectPath, "org.freedesktop.DBus.Properties", "GetAll",
                [.string("org.mpris.MediaPlayer2.Player")])
        case .call(let player, let member, let arguments, let slot):
            ask(.call(player: player, member: member, slot: slot), player, MediaState.objectPath, "org.mpris.MediaPlayer2.Player",
                member, arguments)
        case .show(let slot, let face, let previous):
            show(face, at: slot, previous: previous)
        case .alert(let slot):
            flash(slot)
        case .log(let level, let text):
            plugin.log(text, level: level)
        }
    }

    private func ask(_ request: MediaState.Request, _ destination: String, _ path: String, _ interface: String,
                     _ member: String, _ arguments: [DBusValue] = []) {
        guard let bus else { return }
        do {
            let cookie = try bus.call(destination: destination, path: path, interface: interface, member: member,
                                      arguments: arguments, timeoutMicroseconds: 5_000_000)
            requests[cookie] = request
        } catch {
            plugin.log(error.description, level: .warning)
        }
    }

    private static func nowMilliseconds() -> Int64 { DBusConnection.monotonicMilliseconds() }
}
