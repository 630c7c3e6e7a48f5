import DeckModel
import DeckProtocol
import DeckWeb

extension FaceTable {
    /// A face stays where its slot still holds a button with the same name
    /// and action (its `state` only while that state id still exists), goes
    /// with its button when the button moved (found, equal, in a slot that
    /// held something else), and otherwise goes back to default
    /// (docs/faces.md §2). Devices learn the result from the layout's
    /// `faces`; level-7 devices get `buttonState` null for a title that went.
    mutating func layoutChanged(_ new: DeckLayout) -> [FaceAction] {
        let old = layout
        layout = new
        var kept: [DeckSlot: Face] = [:]
        var actions: [FaceAction] = []
        var claimed: Set<DeckSlot> = []
        for slot in faces.keys.sorted() {
            guard var face = faces[slot] else { continue }
            let before = old.button(page: slot.page, index: slot.index)
            let now = Self.button(new, slot)
            var target: DeckSlot?
            if let before, let now, before == now {
                target = slot
            } else if let before, let moved = Self.destination(of: before, from: old, to: new, excluding: claimed) {
                target = moved
            } else if let before, let now, now.name == before.name, now.action == before.action {
                target = slot  // restyled, or states changed: the same button
            }
            guard let target, let button = Self.button(new, target) else {
                actions += dropImage(face.image)
                continue
            }
            claimed.insert(target)
            if let state = face.state, button.state(state) == nil { face.state = nil }
            if !face.isDefault { kept[target] = face } else { actions += dropImage(face.image) }
        }
        faces = kept
        pending = pending.filter { faces[$0.key] != nil }
        // The layout broadcast carries every face as it is now, images included.
        shownImages = faces.compactMapValues { $0.image?.hash }
        // Level-7 devices keep a title until told otherwise.
        let titled = Set(shownTitles.keys).union(faces.compactMap { $0.value.title == nil ? nil : $0.key })
        for slot in titled.sorted() where faces[slot]?.title != shownTitles[slot] {
            shownTitles[slot] = faces[slot]?.title
            actions.append(.sendTitle(slot, faces[slot]?.title))
        }
        return actions
    }

    private static func button(_ layout: DeckLayout, _ slot: DeckSlot) -> DeckButton? {
        guard slot.page < layout.pages.count, slot.index < layout.slotsPerPage else { return nil }
        return layout.button(page: slot.page, index: slot.index)
    }

    /// Where `button` went: a slot of `new` holding it that held another button in `old`.
    private static func destination(of button: DeckButton, from old: DeckLayout, to new: DeckLayout,
                                    excluding claimed: Set<DeckSlot>) -> DeckSlot? {
        for (page, contents) in new.pages.enumerated() {
            for (index, candidate) in contents.buttons.enumerated() where candidate == button {
                let slot = DeckSlot(page: page, index: index)
                if !claimed.contains(slot), Self.button(old, slot) != button { return slot }
            }
        }
        return nil
    }

    private mutating func dropImage(_ image: FaceImage?) -> [FaceAction] {
        guard let image else { return [] }
        imageUses[image.hash, default: 1] -= 1
        guard imageUses[image.hash] == 0 else { return [] }
        imageUses[image.hash] = nil
        return [.forgetImage(hash: image.hash)]
    }
}
