import DeckProtocol
import DeckTransport

/// A slot a connection holds down.
struct HeldSlot: Hashable, Comparable {
    var page: Int
    var index: Int
    static func < (lhs: HeldSlot, rhs: HeldSlot) -> Bool { (lhs.page, lhs.index) < (rhs.page, rhs.index) }
}

/// The plugin buttons each device holds down: a `down` of a plugin button is
/// held until the same connection sends an `up` for that slot (whatever the
/// slot holds by then). Not for control clients: `deckctl press --down` and
/// `deckctl press --up` are two connections.
///
/// When a device leaves while holding buttons, or the host locks, each held
/// button is owed the `up` it would otherwise never get (a hold-to-talk
/// button would stay "talking"); the inputs below return those `up` presses,
/// with the button and device of their `down`, for the host to send.
/// Loop-confined; no I/O, so tests drive it directly.
struct HeldButtons {
    private var held: [ConnectionID: [HeldSlot: ActionRequest]] = [:]

    /// True when no button is held.
    var isEmpty: Bool { held.isEmpty }

    /// A press of a device, in pipeline order.
    mutating func track(_ request: ActionRequest, of connection: ConnectionID) {
        let slot = HeldSlot(page: request.page, index: request.index)
        switch request.phase {
        case .down:
            guard case .plugin = request.button.action else { return }
            held[connection, default: [:]][slot] = request
        case .up:
            held[connection]?[slot] = nil
            if held[connection]?.isEmpty == true { held[connection] = nil }
        case .tap:
            break
        }
    }

    /// `connection` left: the `up` of each button it held, in slot order.
    mutating func left(_ connection: ConnectionID) -> [ActionRequest] {
        Self.ups(held.removeValue(forKey: connection) ?? [:])
    }

    /// The host locked: the `up` of every held button (connections in the
    /// order they came, then slots in order). A push-to-talk must not stay
    /// open on a locked desktop, and the device's own `up` would be refused
    /// (`locked`) until the host is unlocked.
    mutating func liftAll() -> [ActionRequest] {
        let all = held
        held = [:]
        return all.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { Self.ups(all[$0] ?? [:]) }
    }

    private static func ups(_ slots: [HeldSlot: ActionRequest]) -> [ActionRequest] {
        slots.keys.sorted().compactMap { slot in
            guard var request = slots[slot] else { return nil }
            request.phase = .up
            return request
        }
    }
}
