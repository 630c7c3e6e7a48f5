import DeckModel

extension PluginCatalog {
    /// The slots of `layout` whose button runs a plugin command its manifest
    /// declares `hold: true` (PROTOCOL.md §5 `holdSlots`), in slot order.
    /// A command the manifest does not list, or a plugin not installed, is
    /// no hold: the device then treats the button as any other.
    public func holdSlots(in layout: DeckLayout) -> [DeckSlot] {
        var held: Set<[String]> = []
        for manifest in manifests {
            for command in manifest.commands where command.hold { held.insert([manifest.id, command.name]) }
        }
        guard !held.isEmpty else { return [] }
        return layout.placedButtons.compactMap { placed in
            guard case let .plugin(id, command, _) = placed.button.action, held.contains([id, command]) else { return nil }
            return DeckSlot(page: placed.page, index: placed.index)
        }
    }
}
