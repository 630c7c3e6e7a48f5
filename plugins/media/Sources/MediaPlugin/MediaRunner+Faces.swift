import DeckPluginKit

extension MediaRunner {
    /// Sends the fields of `face` that differ from `previous` (all of them when it is nil).
    func show(_ face: MediaState.Face, at slot: MediaState.Slot, previous: MediaState.Face?) {
        let target = ButtonTarget.slot(page: slot.page, index: slot.index)
        if previous == nil || previous?.state != face.state {
            plugin.setState(face.state, for: target)
        }
        if previous == nil || previous?.title != face.title {
            plugin.setTitle(face.title, for: target)
        }
        if previous == nil || previous?.art != face.art {
            plugin.setImage(image(for: face.art), for: target)
        }
    }

    /// The art's bytes for a face, nil for none; a URL that cannot be shown is logged the first time.
    func image(for url: String?) -> [UInt8]? {
        guard let url else { return nil }
        let (result, fresh) = art.image(url)
        switch result {
        case .success(let bytes):
            return bytes
        case .failure(let error):
            if fresh { plugin.log("\(error); the button shows no image", level: .warning) }
            return nil
        }
    }

    /// The red one-shot flash of a press that could not be done.
    func flash(_ slot: MediaState.Slot) {
        plugin.showAlert(for: .slot(page: slot.page, index: slot.index))
    }
}

/// The last few art URLs and what loading them gave, so a track's art is
/// read once for every button that shows it, and a bad one is logged once.
struct ArtCache {
    private var entries: [(url: String, result: Result<[UInt8], MediaError>)] = []
    private static let capacity = 8

    /// The bytes for `url`, loading on a miss; `fresh` is true when it was just loaded.
    mutating func image(_ url: String) -> (result: Result<[UInt8], MediaError>, fresh: Bool) {
        if let hit = entries.first(where: { $0.url == url }) { return (hit.result, false) }
        let result = AlbumArt.load(url)
        entries.append((url, result))
        if entries.count > Self.capacity { entries.removeFirst() }
        return (result, true)
    }
}
