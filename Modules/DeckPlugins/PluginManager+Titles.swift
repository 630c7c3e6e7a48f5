import DeckPluginKit

extension PluginManager: PluginSupervisorDelegate {
    func pluginLog(_ level: PluginLogLevel, _ message: String) {
        events.log(level, message)
    }

    func plugin(_ supervisor: PluginSupervisor, setTitle title: String?, page: Int, index: Int) {
        let slot = Slot(page: page, index: index)
        if let title {
            guard let button = supervisor.buttons.first(where: { $0.page == page && $0.index == index }) else { return }
            guard titles[slot]?.title != title || titles[slot]?.plugin != supervisor.id || titles[slot]?.button != button else { return }
            titles[slot] = (supervisor.id, button, title)
        } else {
            guard titles[slot] != nil else { return }
            titles[slot] = nil
        }
        pendingTitles.insert(slot)
        showTitles()
    }

    func plugin(_ supervisor: PluginSupervisor, face message: PluginMessage, for buttons: [PluginButton]) {
        events.faceMessage(supervisor.id, buttons, message)
    }

    func pluginStatusChanged(_ supervisor: PluginSupervisor) {
        events.statusChanged(supervisor.status)
    }

    /// A plugin's titles described its running state; with the process gone
    /// the buttons show their names again.
    func pluginProcessEnded(_ supervisor: PluginSupervisor) {
        for (slot, entry) in titles where entry.plugin == supervisor.id {
            titles[slot] = nil
            pendingTitles.insert(slot)
        }
        showTitles()
        events.processEnded(supervisor.id)
    }

    func pluginStopped(_ supervisor: PluginSupervisor) {
        if retiring.removeValue(forKey: ObjectIdentifier(supervisor)) != nil {
            events.log(.info, "plugin '\(supervisor.id)' stopped")
            // How the replaced process ended is the new supervisor's last exit (`deckctl plugins`).
            if let ended = supervisor.lastExit { supervisors[supervisor.id]?.lastExit = ended }
            startNeeded()  // the new process of that id may start now
        } else if supervisors[supervisor.id] === supervisor, isShuttingDown {
            supervisors[supervisor.id] = nil
            events.log(.info, "plugin '\(supervisor.id)' stopped")
        }
        finishShutdownIfDone()
    }

    // MARK: Titles to devices

    /// Tells devices about changed titles: at once when none was sent within
    /// the last ``PluginPolicy/titleInterval``, else once that interval ends,
    /// with only the latest title of each slot. So a plugin setting titles in
    /// a loop costs each device a bounded number of lines.
    func showTitles() {
        guard titleTimer == nil, !pendingTitles.isEmpty else { return }
        let slots = pendingTitles.sorted()
        pendingTitles = []
        var sentAny = false
        for slot in slots {
            let title = titles[slot]?.title
            guard shown[slot] != title else { continue }
            shown[slot] = title
            events.titleChanged(slot.page, slot.index, title)
            sentAny = true
        }
        guard sentAny else { return }
        titleTimer = loop.schedule(after: policy.titleInterval) { [weak self] in
            guard let self else { return }
            titleTimer = nil
            showTitles()
        }
    }
}
