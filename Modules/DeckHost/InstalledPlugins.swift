import DeckModel
import DeckPluginKit
import DeckPlugins
import DeckProfiles

/// The installed plugins as the rules decide on them (docs/host.md, "Plugins
/// in the host"): the manifests of the last scan of the plugins folders as
/// a value (which plugin has which commands, which hold, which settings
/// they declare), each plugin's buttons as the plugin manager was last
/// told, the plugins the live layout uses that are not installed as last
/// warned about, and the settings problems of the profiles, checked once per
/// catalog rather than per `status`. The plugin manager (DeckPlugins) only
/// runs the processes this names.
struct InstalledPlugins {
    /// The manifests of the last scan (start or reload); empty until the plugins start.
    private(set) var catalog = PluginCatalog()
    /// The plugins folders, in the order they are searched.
    private(set) var folders: [String] = []
    /// True once the plugin manager exists; until then nothing is sent to it.
    private(set) var started = false
    /// Each plugin's buttons in the committed layout, as the manager was last told.
    private(set) var told: [String: [PluginButton]] = [:]
    /// Plugin ids the live layout uses that are not installed, as last warned about.
    private(set) var missing: Set<String> = []
    /// Every settings problem of the profile files read, against `catalog`.
    private(set) var settingsProblems: [FileProblem] = []
    /// The committed layout's plugin buttons page by page, so a commit reads
    /// only the pages it changed (a whole layout's scan per edit was an
    /// eighth of deckd's instructions per edit: docs/performance.md).
    private var pages = PageReadings<(plugin: String, button: PluginButton)>()

    /// The plugin manager started with `catalog`, read from `folders`.
    mutating func start(_ catalog: PluginCatalog, folders: [String], profiles: ProfileCatalog) {
        started = true
        self.folders = folders
        replace(catalog, profiles: profiles)
    }

    /// A reload read the plugins folders again.
    mutating func replace(_ catalog: PluginCatalog, profiles: ProfileCatalog) {
        self.catalog = catalog
        check(profiles)
    }

    /// The layouts folder was read again: its settings are checked anew.
    mutating func check(_ profiles: ProfileCatalog) {
        settingsProblems = catalog.settingsProblems(in: profiles)
    }

    /// The plugins whose buttons in `layout` differ from what they were last
    /// told, with their buttons now (none: told it has none), in id order;
    /// they count as told. Nothing before the plugins start.
    mutating func follow(_ layout: DeckLayout) -> [(plugin: String, buttons: [PluginButton])] {
        guard started else { return [] }
        var changed: [(plugin: String, buttons: [PluginButton])] = []
        // Only a plugin with a button on a changed page can have other buttons now.
        let update = pages.update(layout) { page, number in page.pluginButtons(page: number) }
        // A plugin whose buttons on the changed pages read the same as before
        // (each names its page and slot) has the same buttons as it was told:
        // most edits move buttons no plugin owns.
        guard !update.gone.elementsEqual(update.read, by: { $0.plugin == $1.plugin && $0.button == $1.button }) else { return [] }
        var before: [String: [PluginButton]] = [:]
        var after: [String: [PluginButton]] = [:]
        for entry in update.gone { before[entry.plugin, default: []].append(entry.button) }
        for entry in update.read { after[entry.plugin, default: []].append(entry.button) }
        // A plugin or two: an array, not the Sets of a union (a tenth of this function's instructions).
        var affected: [String] = []
        for plugin in before.keys where before[plugin] != after[plugin] { affected.append(plugin) }
        for plugin in after.keys where before[plugin] == nil { affected.append(plugin) }
        for plugin in affected.sorted() {
            // Only this plugin's entries are copied: joining every page's first copied them all.
            let now = pages.picking { $0.plugin == plugin ? $0.button : nil }
            guard now != (told[plugin] ?? []) else { continue }
            told[plugin] = now.isEmpty ? nil : now
            changed.append((plugin, now))
        }
        return changed
    }

    /// The plugins the live layout uses that have no usable manifest and
    /// were not warned about yet, with why, in id order (each once, until
    /// it is there again).
    mutating func newlyMissing() -> [(plugin: String, reason: String)] {
        // `contains`, not `manifest(id:)`: that copies a manifest per plugin on every commit.
        let now = Set(told.keys.filter { id in !catalog.manifests.contains { $0.id == id } })
        defer { missing = now }
        return now.subtracting(missing).sorted().map { ($0, catalog.unavailableReason($0, folders: folders)) }
    }

    /// The slots of `layout` whose button is a hold-capable plugin command.
    func holdSlots(in layout: DeckLayout) -> [DeckSlot] {
        catalog.holdSlots(in: layout)
    }
}
