import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckProtocol
import DeckTransport

extension HostCore {
    /// Starts plugin supervision with the manifests found at start; plugins
    /// the live layout uses start now, the others when a button needs them.
    func startPlugins(_ catalog: PluginCatalog, searchPath: String?) {
        let events = PluginManager.Events(
            log: { [weak self] level, message in self?.services.logger.log(LogLevel(rawValue: level.rawValue) ?? .info, message) },
            titleChanged: { [weak self] page, index, title in
                // The title is part of the face: the table tells level-7 and level-8 devices each their way.
                self?.feedFaces(.change(DeckSlot(page: page, index: index), [.title(title)], from: .plugin("")))
            },
            statusChanged: { [weak self] status in self?.emit(.plugin(status)) },
            faceMessage: { [weak self] plugin, buttons, message in self?.pluginFace(plugin, buttons, message) },
            processEnded: { [weak self] plugin in self?.feedFaces(.pluginEnded(plugin)) })
        let manager = PluginManager(loop: loop, folders: services.configuration.plugins, searchPath: searchPath, catalog: catalog,
                                    hostName: hostInfo.name, hostVersion: hostInfo.version,
                                    policy: services.configuration.pluginPolicy, events: events)
        inputs.plugins = manager
        let folders = services.configuration.plugins.joined(separator: ", ")
        services.logger.info("plugins: \(catalog.manifests.map(\.id).joined(separator: ", ").ifEmpty("none")) (from \(folders))")
        manager.layoutChanged(live.committed.layout)
        refreshHoldSlots()
        logSettingsProblems()
    }

    /// Hands a press of a plugin button to its plugin; how that went is the
    /// press's `action` event.
    func pressPlugin(_ request: ActionRequest, plugin id: String, command: String, settings: [String: DeckValue]?) {
        guard let plugins = inputs.plugins else {
            actionEnded(request, .pluginUnavailable(plugin: id), detail: "is stopping with the host")
            return
        }
        let press = PluginPress(phase: PluginPress.Phase(rawValue: request.phase.rawValue) ?? .tap, command: command,
                                settings: settings ?? [:],
                                button: PluginButtonReference(page: request.page, index: request.index, name: request.button.name),
                                device: request.by.map { PluginDevice(name: $0.name, kind: $0.kind) })
        plugins.press(plugin: id, press) { [weak self] result in
            switch result {
            case .delivered:
                self?.actionEnded(request, .delivered)
            case .unavailable(let reason):
                self?.actionEnded(request, .pluginUnavailable(plugin: id), detail: reason)
            case .dropped(let reason):
                self?.actionEnded(request, .failed(reason: "plugin '\(id)' \(reason)"))
            }
        }
    }

    /// A scan of the plugins folders, to run on the disk thread (`deckctl
    /// reload` and SIGHUP read them again along with the profiles).
    var pluginScan: @Sendable () -> PluginCatalog {
        let folders = services.configuration.plugins
        let searchPath = services.configuration.searchPath
        return { PluginCatalog.scan(folders: folders, searchPath: searchPath) }
    }

    /// Applies a fresh scan of the plugins folders (failed plugins may start again).
    func applyPlugins(_ catalog: PluginCatalog) {
        guard let plugins = inputs.plugins, !stopping else { return }
        plugins.reload(catalog)
        services.logger.info("reloaded the plugins: \(catalog.manifests.map(\.id).joined(separator: ", ").ifEmpty("none"))")
        refreshHoldSlots()
    }

    /// The plugins changed: a layout with the new `holdSlots` to everyone
    /// when they differ (the same revision: they are not part of the layout).
    func refreshHoldSlots() {
        do {
            if try live.relabel(holdSlots: inputs.plugins?.catalog.holdSlots(in: live.committed.layout) ?? []) {
                perform(.broadcastLayout)
            }
        } catch {
            services.logger.error("could not encode the layout of revision \(live.committed.revision): \(error)")
        }
    }

    /// `restart PLUGIN`: stops it and starts it again (when the live layout
    /// uses it); `notFound` for an id no installed plugin has.
    func restartPlugin(_ plugin: String, id: RequestID?, from session: Session) {
        guard let plugins = inputs.plugins, plugins.restart(plugin) else {
            let known = inputs.plugins?.catalog.manifests.map(\.id).joined(separator: ", ").ifEmpty("none") ?? "none"
            submit(Outcome(refusal(ProtocolError(.notFound, "no plugin '\(plugin)' is installed (installed: \(known))", id: id),
                                   request: "restart", session: session)), from: session)
            return
        }
        submit(Outcome([.ok(session.connection.id, id, withRevision: false),
                        .log(.info, "restarted plugin '\(plugin)'\(byline(session))")]), from: session)
    }

    /// The titles faces show now, to a client below level 8 that just
    /// joined (or subscribed); level 8 has them in its welcome's `faces`.
    func sendTitles(to id: ConnectionID) {
        guard let session = sessions[id], (info(session)?.protocolLevel ?? 1) < 8 else { return }
        for face in faces.current where face.title != nil {
            send(.buttonState(page: face.page, index: face.index, title: face.title), to: id)
        }
    }

    /// Every manifest problem, and every settings problem of the profiles, for `status`.
    var pluginProblems: [Problem] {
        (inputs.plugins?.catalog.problems ?? []).map(problem) + settingsProblems
    }
}

extension String {
    /// `replacement` when the string is empty.
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
