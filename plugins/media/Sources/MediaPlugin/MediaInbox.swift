import DeckPluginKit
import DeckDBus

/// One thing for the bus thread.
enum MediaInboxItem: Sendable {
    /// A line from the host.
    case host(PluginEvent)
    /// What fetching an art URL gave (``ArtFetcher``).
    case art(url: String, result: Result<[UInt8], MediaError>)
}

/// Hands the host's events from the plugin's main thread, and fetched art
/// from the fetch thread, to its bus thread.
typealias MediaInbox = BusMailbox<MediaInboxItem>

extension BusMailbox where Item == MediaInboxItem {
    /// Queues a host event for the bus thread.
    func post(_ event: PluginEvent) {
        post(.host(event))
    }
}
