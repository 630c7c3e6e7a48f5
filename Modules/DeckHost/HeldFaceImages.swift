import DeckModel

/// The face images one TCP device connection holds: those of the faces it
/// was last sent, slot by slot, so each image's bytes go to it inline once
/// (docs/faces.md §4) and not with every later face of its button.
///
/// Re-sending the bytes with every face was a flood: a plugin flipping the
/// state of ten buttons that show 256 KiB images wrote ~56 MB in 3 s to each
/// device, and closed one that read 2 MB/s (an audit's finding). A device
/// shows what it was sent, so it holds an image while one of those faces
/// shows it; the host sends the bytes again for a face whose image the
/// device may have dropped. A line the connection replaces before writing
/// it (``Connection/sendLatest(_:)``) may leave this believing the device
/// shows less than it does, never more: the worst is bytes sent twice.
/// The caller never lets a line that carries bytes be replaced.
struct HeldFaceImages {
    private var shown: [DeckSlot: String] = [:]
    private var uses: [String: Int] = [:]

    /// True when the device holds the bytes of the image `hash`.
    func holds(_ hash: String) -> Bool { uses[hash] != nil }

    /// A `buttonFace` for `slot` showing `hash` (nil: no image) goes to the
    /// device: true when it must carry the bytes.
    mutating func send(_ hash: String?, at slot: DeckSlot) -> Bool {
        let carries = hash.map { !holds($0) } ?? false
        show(hash, at: slot)
        return carries
    }

    /// A `faces` list (in a `welcome` or a `layout`), which replaces every
    /// face the device shows: the images that must carry their bytes.
    mutating func sendList(_ faces: [(slot: DeckSlot, image: String?)]) -> Set<String> {
        let carried = Set(faces.compactMap { $0.image.flatMap { holds($0) ? nil : $0 } })
        // The device looks the others up among the faces it showed before the list.
        shown = [:]
        uses = [:]
        for face in faces { show(face.image, at: face.slot) }
        return carried
    }

    private mutating func show(_ hash: String?, at slot: DeckSlot) {
        if let old = shown[slot] {
            uses[old, default: 1] -= 1
            if uses[old] == 0 { uses[old] = nil }
        }
        shown[slot] = hash
        if let hash { uses[hash, default: 0] += 1 }
    }
}
