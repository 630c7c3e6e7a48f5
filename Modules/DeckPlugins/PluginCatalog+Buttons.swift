import DeckModel
import DeckPluginKit

extension DeckLayout {
    /// Each plugin's buttons in this layout, in page and slot order: what
    /// each plugin is sent as `buttons` (PLUGINS.md §4) while the layout is live.
    public var pluginButtons: [String: [PluginButton]] {
        var buttons: [String: [PluginButton]] = [:]
        for (number, page) in pages.enumerated() {
            for (plugin, button) in page.pluginButtons(page: number) { buttons[plugin, default: []].append(button) }
        }
        return buttons
    }
}

extension DeckPage {
    /// The plugin buttons of this page (page `number` of its layout), in slot
    /// order, each with its plugin's id.
    public func pluginButtons(page number: Int) -> [(plugin: String, button: PluginButton)] {
        buttons.enumerated().compactMap { index, button in
            guard let button, case let .plugin(id, command, settings) = button.action else { return nil }
            return (id, PluginButton(page: number, index: index, name: button.name, command: command, settings: settings ?? [:]))
        }
    }
}

extension PluginCatalog {
    /// Why plugin `id` cannot take presses when it has no usable manifest,
    /// as a predicate about it ("is not installed (…)", "is unavailable: …"):
    /// the press's `action` event and the warning about the live layout's
    /// buttons say the same. `folders`: the plugins folders that were read.
    public func unavailableReason(_ id: String, folders: [String]) -> String {
        if let entry = unavailability(id: id) { return "is unavailable: \(entry.reason)" }
        // The folders are read at start and on reload only: say so, or a plugin
        // folder made while the host runs looks installed but "not installed".
        let searched = folders.isEmpty ? "no plugins folder is set"
            : "looked in \(folders.joined(separator: ", ")); a plugin added there later is found by 'deckctl reload'"
        return "is not installed (\(searched))"
    }
}
