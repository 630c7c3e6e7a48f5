import DeckModel
import DeckPluginKit

/// The sound plugin as a state machine: the connection's life (connect,
/// lose, back off, reconnect), what the server holds, the live buttons and
/// the face each shows. Inputs come from the plugin protocol and from
/// libpulse; each returns the actions the driver (``PulseClient``) performs.
/// No I/O and no clock here, so tests drive it directly.
public struct SoundState: Sendable {
    /// Something that happened.
    public enum Input: Sendable {
        /// The plugin is ready: connect for the first time.
        case start
        /// The connection is up and the first listing of the server done.
        case connected(SoundServer, description: String)
        /// The connection failed or broke, with libpulse's reason.
        case lost(reason: String)
        /// The back-off delay of ``Action/reconnect(after:)`` has passed.
        case reconnectDue
        /// The server's default sink or source changed.
        case defaults(sink: String?, source: String?)
        /// A new listing of every sink.
        case sinks([SoundDevice])
        /// A new listing of every source.
        case sources([SoundDevice])
        /// A new listing of every playback stream.
        case streams([SoundStream])
        /// A change the plugin asked for was refused; the listings are stale.
        case changeFailed(SoundEndpoint, reason: String)
        /// The host's `buttons` event.
        case buttons([PluginButton])
        /// The host's `press` event.
        case press(PluginPress)
    }

    /// What the driver must do, in order.
    public enum Action: Hashable, Sendable {
        /// Open a connection to the server.
        case connect
        /// Wait this long, then feed ``Input/reconnectDue``.
        case reconnect(after: Duration)
        /// Show this face on the button at `page`/`index`.
        case show(page: Int, index: Int, SoundFace)
        /// Flash the button at `page`/`index` red: its press did nothing.
        case alert(page: Int, index: Int)
        /// Ask the server for this change.
        case change(SoundEndpoint, SoundChange)
        /// List everything again (after a refused change).
        case refresh
        /// A line for the host's log.
        case log(PluginLogLevel, String)
    }

    /// A mute or volume change.
    public enum SoundChange: Hashable, Sendable {
        /// Set the mute switch.
        case mute(Bool)
        /// Set the channels' volumes.
        case volume([UInt32])
    }

    // Internal, not private: SoundState+Faces.swift and +Press.swift are the rest of the machine.
    enum Connection: Hashable, Sendable {
        /// Before ``Input/start``.
        case idle
        /// Connecting; `failures` in a row so far.
        case connecting(failures: Int)
        /// Connected and listed.
        case live
        /// Waiting out a back-off after `failures` failures in a row.
        case waiting(failures: Int)
    }

    struct Slot: Hashable, Sendable {
        var page: Int
        var index: Int
    }

    struct Entry: Sendable {
        var button: PluginButton
        var binding: Result<SoundBinding, SoundError>
    }

    /// The first back-off delay; it doubles with every failure in a row.
    public static let firstRetry = Duration.milliseconds(100)
    /// The longest back-off delay.
    public static let longestRetry = Duration.seconds(5)

    var connection = Connection.idle
    var server = SoundServer()
    var entries: [Entry] = []
    var shown: [Slot: SoundFace] = [:]

    /// A machine that has not started.
    public init() {}

    /// Whether the connection is up and listed.
    public var isLive: Bool { connection == .live }

    /// Whether the first try since ``Input/start`` has ended, connected or
    /// not: from then on a press is answered by what the server is, not by a
    /// connection still on its way (the plugin says `ready` then).
    public var firstTryEnded: Bool {
        switch connection {
        case .idle, .connecting(failures: 0): false
        case .connecting, .live, .waiting: true
        }
    }

    /// What the plugin knows of the server now.
    public var knownServer: SoundServer { server }

    /// Feeds one input; returns what to do.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .start:
            guard connection == .idle else { return [] }
            connection = .connecting(failures: 0)
            return [.connect]
        case .connected(let listed, let description):
            connection = .live
            server = listed
            return [.log(.info, "connected to \(description)")] + faces()
        case .lost(let reason):
            return lost(reason)
        case .reconnectDue:
            guard case .waiting(let failures) = connection else { return [] }
            connection = .connecting(failures: failures)
            return [.connect]
        case .defaults(let sink, let source):
            guard connection == .live else { return [] }
            server.defaultSink = sink
            server.defaultSource = source
            return faces()
        case .sinks(let sinks):
            guard connection == .live else { return [] }
            server.sinks = sinks
            return faces()
        case .sources(let sources):
            guard connection == .live else { return [] }
            server.sources = sources
            return faces()
        case .streams(let streams):
            guard connection == .live else { return [] }
            server.streams = streams
            return faces()
        case .changeFailed(let endpoint, let reason):
            guard connection == .live else { return [] }
            return [.log(.warning, "the server refused a change of \(endpoint.logName): \(reason)"), .refresh]
        case .buttons(let buttons):
            return took(buttons)
        case .press(let press):
            return pressed(press)
        }
    }

    private mutating func lost(_ reason: String) -> [Action] {
        let failures: Int
        switch connection {
        case .idle, .waiting: return []
        case .live: failures = 1
        case .connecting(let before): failures = before + 1
        }
        connection = .waiting(failures: failures)
        server = SoundServer()
        let delay = Self.delay(afterFailures: failures)
        // One warning per outage; the retries of a long one only at debug level.
        let level: PluginLogLevel = failures == 1 ? .warning : .debug
        return [.log(level, "\(SoundError.server(reason)); trying again in \(delay.logText)"), .reconnect(after: delay)]
            + faces()
    }

    /// The back-off before the next try after `failures` failures in a row.
    public static func delay(afterFailures failures: Int) -> Duration {
        var delay = firstRetry
        for _ in 1..<max(failures, 1) where delay < longestRetry { delay *= 2 }
        return min(delay, longestRetry)
    }

    private mutating func took(_ buttons: [PluginButton]) -> [Action] {
        let before = Dictionary(entries.map { (Slot(page: $0.button.page, index: $0.button.index), $0.button) },
                                uniquingKeysWith: { first, _ in first })
        var actions: [Action] = []
        entries = buttons.map { button in
            let binding = Result { () throws(SoundError) in
                try SoundBinding.parse(command: button.command, settings: button.settings)
            }
            let slot = Slot(page: button.page, index: button.index)
            if case .failure(let error) = binding, before[slot] != button {
                actions.append(.log(.warning, "\(button.logName): \(error)"))
            }
            return Entry(button: button, binding: binding)
        }
        // The host may have reset the faces of changed slots: show every face again.
        shown = [:]
        return actions + faces()
    }
}

extension SoundEndpoint {
    /// How the log names it.
    var logName: String {
        switch self {
        case .sink(let name): "sink '\(name)'"
        case .source(let name): "source '\(name)'"
        case .stream(let index): "stream #\(index)"
        }
    }
}

extension Duration {
    /// `100 ms`, `1.6 s`.
    var logText: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(Double(milliseconds) / 1000) s"
    }
}
