import DeckProtocol
import DeckTransport

/// A slot a connection holds down.
struct HeldSlot: Hashable, Comparable {
    var page: Int
    var index: Int
    static func < (lhs: HeldSlot, rhs: HeldSlot) -> Bool { (lhs.page, lhs.index) < (rhs.page, rhs.index) }
}

extension HostCore {
    /// Keeps track of the plugin buttons a device holds down: a `down` of a
    /// plugin button is held until the same connection sends an `up` for that
    /// slot (whatever the slot holds by then). Not for control clients:
    /// `deckctl press --down` and `deckctl press --up` are two connections.
    ///
    /// Runs as an effect of the press, in pipeline order, so a connection's
    /// presses and the lift when it leaves reach the plugin in that order.
    func trackHold(_ request: ActionRequest, of connection: ConnectionID) {
        let slot = HeldSlot(page: request.page, index: request.index)
        switch request.phase {
        case .down:
            guard case .plugin = request.button.action else { return }
            holds[connection, default: [:]][slot] = request
        case .up:
            holds[connection]?[slot] = nil
            if holds[connection]?.isEmpty == true { holds[connection] = nil }
        case .tap:
            break
        }
    }

    /// A connection went away while holding plugin buttons down: each of
    /// them is sent the `up` it would otherwise never get (a hold-to-talk
    /// button would stay "talking"), with the button and device of its
    /// `down`. PROTOCOL.md says both edges reach the action; it is silent on
    /// a device that leaves in between (docs/plugins.md, "Presses").
    ///
    /// Done in pipeline order, after the presses it sent (a `down` may still
    /// wait behind a write to disk). Not while the host stops: every plugin
    /// is sent `shutdown` then.
    func liftHolds(of connection: ConnectionID) {
        guard !stopping else { return }
        submit(Outcome([.run { core in
            guard let held = core.holds.removeValue(forKey: connection), !core.stopping else { return }
            core.lift(held) { who in "\(who) left while holding it down" }
        }]))
    }

    /// The host locked: every held plugin button is lifted. A push-to-talk
    /// must not stay open on a locked desktop, and the device's own `up`
    /// would be refused (`locked`) until the host is unlocked.
    func liftAllHolds() {
        let all = holds
        holds = [:]
        for connection in all.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let held = all[connection] { lift(held) { who in "the host locked while \(who) held it down" } }
        }
    }

    /// Sends `up` for each held button, in slot order, with a log line that
    /// says `why` (given who held it).
    private func lift(_ held: [HeldSlot: ActionRequest], why: (String) -> String) {
        for slot in held.keys.sorted() {
            guard var request = held[slot], case let .plugin(plugin, command, settings) = request.button.action else { continue }
            request.phase = .up
            logger.info("'\(LogField.cut(request.button.name))' lifted at \(slot.page)/\(slot.index): \(why(request.by?.name ?? "the device"))")
            pressPlugin(request, plugin: plugin, command: command, settings: settings)
        }
    }
}
