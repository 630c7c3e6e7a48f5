import DeckDBus
import Synchronization

/// What the main thread (``PortalKeyboard``) and the bus thread
/// (``PortalThread``) share: the condition the bus thread last saw, and the
/// keys waiting to go out in a ``BusMailbox`` whose wake-up pipe the bus
/// thread polls, so keys wake it at once.
final class PortalLink: Sendable {
    private let shared = Mutex(PortalCondition.starting(restoring: false))
    private let mailbox: BusMailbox<PortalKey>

    init() throws(KeysError) {
        do throws(DBusError) {
            mailbox = try BusMailbox(for: "portal thread")
        } catch {
            throw .backEnd(error.description)
        }
    }

    /// The read end the bus thread polls.
    var wakeDescriptor: Int32 { mailbox.wakeDescriptor }

    var condition: PortalCondition {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    /// Queues keys for the bus thread.
    func post(_ keys: [PortalKey]) {
        mailbox.post(keys)
    }

    /// Asks the bus thread to close the session and end (after the keys queued before).
    func stop() {
        mailbox.stop()
    }

    /// The keys queued since the last call, and whether to stop.
    func take() -> (keys: [PortalKey], stopped: Bool) {
        let (keys, stopped) = mailbox.take()
        return (keys, stopped)
    }
}
