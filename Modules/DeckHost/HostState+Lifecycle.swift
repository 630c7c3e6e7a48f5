import DeckProtocol
import DeckTransport

extension HostState {
    /// PLUGINS.md gives a plugin 2 s after `shutdown`; CLI.md gives the host
    /// 2 s to exit. The host's own deadline wins: SIGTERM after 1 s, SIGKILL
    /// 0.4 s later, so every plugin is gone before the host.
    static let pluginGrace: Duration = .milliseconds(1000)
    static let pluginKillGrace: Duration = .milliseconds(400)
    /// When the stop gives up on the disk and the plugins (within the host's 2 s).
    static let stopDeadline: Duration = .milliseconds(1500)

    /// A signal: SIGHUP reloads the profiles and the plugins (not while
    /// stopping: nothing it read could still be used), SIGINT and SIGTERM stop.
    mutating func received(_ signal: HostSignal) -> [HostAction] {
        switch signal {
        case .hangUp:
            guard !stopping else { return [.log(.info, "SIGHUP while stopping: not reloading")] }
            return [.log(.info, "SIGHUP: reloading the profiles and the plugins"),
                    reload(requestedBy: nil, id: nil, plugins: true)]
        case .interrupt:
            return beginStopping(because: "SIGINT")
        case .terminate:
            return beginStopping(because: "SIGTERM")
        }
    }

    /// Stops accepting and reading, lets the edits in hand reach the disk and
    /// their replies go out, stops every plugin, then stops the loop (within
    /// 2 s whatever happens: the ``HostTimer/stopDeadline``).
    mutating func beginStopping(because reason: String) -> [HostAction] {
        guard shutdown.begin() else { return [] }
        return [.log(.info, "\(reason): stopping"),
                .stop(.closeListeners), .stop(.stopWatching), .stop(.stopActions)]
            + stopFollows()
            + [.stop(.stopPlugins(grace: Self.pluginGrace, killGrace: Self.pluginKillGrace)),
                .stop(.holdReading), .stop(.releaseCommits), .stop(.checkProgress),
                .armTimer(.stopDeadline, after: Self.stopDeadline)]
    }

    /// What `restart PLUGIN` found: `ok`, or `notFound` naming what is installed.
    func pluginRestarted(_ plugin: String, _ result: PluginRestart, id: RequestID?,
                         for connection: ConnectionID) -> [HostAction] {
        guard sessions[connection] != nil else { return [] }
        switch result {
        case .restarted:
            return [.commit(Commit(Outcome([.ok(connection, id, withRevision: false),
                                            .log(.info, "restarted plugin '\(plugin)'\(byline(connection))")]),
                                   sender: connection))]
        case .notInstalled(let installed):
            let known = installed.isEmpty ? "none" : installed.joined(separator: ", ")
            return [refused(ProtocolError(.notFound, "no plugin '\(plugin)' is installed (installed: \(known))", id: id),
                            request: "restart", by: connection)]
        }
    }
}
