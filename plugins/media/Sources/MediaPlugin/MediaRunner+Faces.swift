import DeckPluginKit

extension MediaRunner {
    /// Sends the fields of `face` that differ from `previous` (all of them when it is nil).
    func show(_ face: MediaState.Face, at slot: MediaState.Slot, previous: MediaState.Face?) {
        let target = ButtonTarget.slot(page: slot.page, index: slot.index)
        var messages: [PluginMessage] = []
        if previous == nil || previous?.state != face.state {
            messages.append(.setState(target: target, state: face.state))
        }
        if previous == nil || previous?.title != face.title {
            messages.append(.setTitle(target: target, title: face.title))
        }
        // In one write: devices see the new state with its title, not under the old one for a frame.
        if !messages.isEmpty { plugin.send(messages) }
        if previous == nil || previous?.art != face.art {
            perform(art.show(face.art, at: slot))
        }
    }

    /// Performs what the art machine asks: a file read at once, a fetch handed to the fetch thread.
    func perform(_ actions: [ArtState.Action]) {
        for action in actions {
            switch action {
            case .read(let url):
                perform(art.loaded(url, AlbumArt.load(url)))
            case .fetch(let url):
                switch startedFetcher() {
                case .success(let fetcher): fetcher.fetch(url)
                case .failure(let error): perform(art.loaded(url, .failure(error)))
                }
            case .cancel(let url):
                fetcher?.cancel(url)
            case .image(let slot, let bytes):
                plugin.setImage(bytes, for: .slot(page: slot.page, index: slot.index))
            case .log(let text):
                plugin.log(text, level: .warning)
            }
        }
    }

    /// The fetch thread, started the first time http(s) art is wanted, or why it cannot start (then each fetch fails with that).
    private func startedFetcher() -> Result<ArtFetcher, MediaError> {
        if let fetcher { return .success(fetcher) }
        let inbox = self.inbox
        do {
            let started = try ArtFetcher(limits: fetchLimits) { url, result in inbox.post(.art(url: url, result: result)) }
            fetcher = started
            return .success(started)
        } catch {
            return .failure(MediaError("http(s) art cannot be fetched: \(error)"))
        }
    }

    /// The red one-shot flash of a press that could not be done.
    func flash(_ slot: MediaState.Slot) {
        plugin.showAlert(for: .slot(page: slot.page, index: slot.index))
    }
}
