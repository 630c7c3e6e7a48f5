/// Who holds a connection's reading paused, and why: reading goes on only
/// when nothing holds it. Each holder releases only its own hold, so a
/// throttle that ends cannot resume a connection still waiting for the disk.
struct ReadGate: Equatable {
    /// Why reading is paused.
    enum Reason: Hashable, CaseIterable {
        /// A request of this client waits for the disk (its replies stay in request order).
        case disk
        /// Too many outcomes wait for the disk (CommitScheduler's throttle).
        case throttled
        /// Its token was revoked (`pair`, `unpair`): it is closed once the replies owed to it are out.
        case revoked
        /// The host is stopping: nothing more is read from anyone.
        case stopping
    }

    /// What the connection must do after a change.
    enum Action: Equatable {
        case pause
        case resume
        case none
    }

    private var holds: [Reason: Int] = [:]

    /// True while anything holds reading.
    var isPaused: Bool { !holds.isEmpty }

    /// True while `reason` holds reading.
    func isHeld(_ reason: Reason) -> Bool { holds[reason] != nil }

    /// Adds a hold for `reason`; `pause` when it is the first of all.
    /// Disk holds count (one per job in flight); the others are on or off.
    mutating func hold(_ reason: Reason) -> Action {
        let wasPaused = isPaused
        holds[reason, default: 0] = reason == .disk ? holds[reason, default: 0] + 1 : 1
        return wasPaused ? .none : .pause
    }

    /// Removes one hold for `reason`; `resume` when nothing holds reading any more.
    mutating func release(_ reason: Reason) -> Action {
        guard let count = holds[reason] else { return .none }
        holds[reason] = count > 1 ? count - 1 : nil
        return isPaused ? .none : .resume
    }
}
