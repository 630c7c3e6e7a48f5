import DeckModel
import DeckPlugins
import DeckProtocol

// Which plugins hear of a new button set, the hold slots the installed
// plugins make, and the problems of their manifests and of the profiles'
// settings: decided here, from the catalog the state holds (``InstalledPlugins``);
// the shell's plugin manager only runs the processes.

extension HostState {
    /// The plugin manager started with `catalog`: its problems, the plugins
    /// found, each plugin's buttons of the live layout (and a warning for
    /// those it uses that are missing), the hold slots, the settings problems.
    mutating func pluginsStarted(_ catalog: PluginCatalog, folders: [String]) -> [HostAction] {
        plugins.start(catalog, folders: folders, profiles: self.catalog)
        let found = catalog.manifests.map(\.id).joined(separator: ", ").ifEmpty("none")
        return manifestProblems(catalog)
            + [.log(.info, "plugins: \(found) (from \(folders.joined(separator: ", ")))")]
            + pluginsFollow(live.committed.layout) + relabelHoldSlots() + settingsWarnings(files: nil)
    }

    /// A reload read the plugins folders again: the manager applies it
    /// (changed plugins restart, failed ones may start again), then its
    /// problems, the plugins that became unavailable (a `plugin` event each),
    /// the live layout's buttons whose plugin went, and a layout with the new
    /// hold slots to everyone when they differ (the same revision: they are
    /// not part of the layout). Nothing before the plugins started.
    mutating func pluginsReloaded(_ fresh: PluginCatalog) -> [HostAction] {
        guard plugins.started else { return [] }
        let wasUnavailable = plugins.catalog.unavailable
        plugins.replace(fresh, profiles: catalog)
        var actions: [HostAction] = [.applyPlugins(fresh)] + manifestProblems(fresh)
        for entry in fresh.unavailable where !wasUnavailable.contains(entry) {
            actions.append(.perform(.event(.plugin(PluginStatus(id: entry.id, state: "unavailable", message: entry.reason)))))
        }
        actions += missingPluginWarnings()
        actions.append(.log(.info, "reloaded the plugins: \(fresh.manifests.map(\.id).joined(separator: ", ").ifEmpty("none"))"))
        return actions + relabelHoldSlots()
    }

    /// The committed layout is `layout`: each plugin whose buttons in it
    /// changed is told them (and no other), then the warnings for plugins it
    /// newly uses that are missing.
    mutating func pluginsFollow(_ layout: DeckLayout) -> [HostAction] {
        plugins.follow(layout).map { .pluginButtons($0.plugin, $0.buttons) } + missingPluginWarnings()
    }

    /// The settings problems of `files` (names in the layouts folder; nil:
    /// every file), as warnings: the profile loads regardless (docs/plugins.md).
    func settingsWarnings(files: [String]?) -> [HostAction] {
        let sites = catalog.files.filter { files?.contains($0.fingerprint.file) ?? true }.flatMap(\.settingsSites)
        return plugins.catalog.settingsProblems(sites).map {
            .log(.warning, "\($0) (the profile loads; this button's plugin gets the setting as written)")
        }
    }

    /// Every manifest problem, and every settings problem of the profiles, for `status`.
    var pluginProblems: [Problem] {
        (plugins.catalog.problems + plugins.settingsProblems).map(problem)
    }

    private func manifestProblems(_ catalog: PluginCatalog) -> [HostAction] {
        catalog.problems.map { .log(.warning, "plugin manifest: \($0)") }
    }

    private mutating func missingPluginWarnings() -> [HostAction] {
        plugins.newlyMissing().map { .log(.warning, "buttons of the live layout use plugin '\($0.plugin)', which \($0.reason)") }
    }

    /// The committed revision's lines again with the installed plugins' hold
    /// slots: a layout to everyone when they changed.
    private mutating func relabelHoldSlots() -> [HostAction] {
        do {
            return try live.relabel(holdSlots: plugins.holdSlots(in: live.committed.layout)) ? [.perform(.broadcastLayout)] : []
        } catch {
            return [.log(.error, "could not encode the layout of revision \(live.committed.revision): \(error)")]
        }
    }
}
