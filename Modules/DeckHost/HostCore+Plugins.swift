import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckProtocol
import DeckTransport

extension HostCore {
    /// Starts plugin supervision with the manifests found at start; the
    /// rules then hand each plugin the live layout's buttons (plugins with
    /// buttons start now, the others when a button needs them).
    func startPlugins(_ catalog: PluginCatalog, searchPath: String?) {
        // The manager's news, as the rules' inputs.
        let inbox = self.inbox
        let events = PluginManager.Events(
            log: { level, message in inbox.post(.plugin(.log(LogLevel(rawValue: level.rawValue) ?? .info, message))) },
            titleChanged: { page, index, title in inbox.post(.plugin(.title(DeckSlot(page: page, index: index), title))) },
            statusChanged: { status in inbox.post(.plugin(.status(status))) },
            faceMessage: { plugin, buttons, message in inbox.post(.plugin(.face(plugin: plugin, buttons, message))) },
            processEnded: { plugin in inbox.post(.plugin(.ended(plugin))) })
        var policy = services.configuration.pluginPolicy
        policy.stateRoot = policy.stateRoot ?? services.configuration.state + "/plugins"
        let manager = PluginManager(loop: loop, folders: services.configuration.plugins, searchPath: searchPath, catalog: catalog,
                                    hostName: hostInfo.name, hostVersion: hostInfo.version,
                                    policy: policy, events: events)
        inputs.plugins = manager
        handle(.pluginsStarted(catalog, folders: services.configuration.plugins))
    }

    /// Hands a press of a plugin button to its plugin; the manager's word on
    /// it comes back as ``PluginInput/pressResult(_:_:)`` (the rules make it
    /// the press's `action` event).
    func pressPlugin(_ request: ActionRequest, plugin id: String, command: String, settings: [String: DeckValue]?) {
        guard let plugins = inputs.plugins else {
            handle(.plugin(.pressWithoutManager(request)))
            return
        }
        let press = PluginPress(phase: PluginPress.Phase(rawValue: request.phase.rawValue) ?? .tap, command: command,
                                settings: settings ?? [:],
                                button: PluginButtonReference(page: request.page, index: request.index, name: request.button.name),
                                device: request.by.map { PluginDevice(name: $0.name, kind: $0.kind) })
        let inbox = self.inbox
        plugins.press(plugin: id, press) { result in inbox.post(.plugin(.pressResult(request, result))) }
    }

    /// A scan of the plugins folders, to run on the disk thread (`deckctl
    /// reload` and SIGHUP read them again along with the profiles).
    var pluginScan: @Sendable () -> PluginCatalog {
        let folders = services.configuration.plugins
        let searchPath = services.configuration.searchPath
        return { PluginCatalog.scan(folders: folders, searchPath: searchPath) }
    }

    /// The titles faces show now, to a client below level 8 that just
    /// joined (or subscribed); level 8 has them in its welcome's `faces`.
    func sendTitles(to id: ConnectionID) {
        guard let session = sessions[id], (info(session)?.protocolLevel ?? 1) < 8 else { return }
        for face in faces.current where face.title != nil {
            send(.buttonState(page: face.page, index: face.index, title: face.title), to: id)
        }
    }
}

extension String {
    /// `replacement` when the string is empty.
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
