import DeckProtocol

/// The host's lock, combined from its sources (PROTOCOL.md §6).
///
/// The host is locked when any source says so: the manual lock
/// (`deckctl lock`) or the lock probe that follows the desktop session.
/// A state machine in the swift-nio style: each input returns what the host
/// must do, and the host does it; nothing here touches a socket.
public struct LockState: Hashable, Sendable {
    /// What the probe last said.
    public enum ProbeReading: Hashable, Sendable {
        /// No probe is configured, or it has not answered yet.
        case none
        /// The desktop session is locked.
        case locked
        /// The desktop session is unlocked.
        case unlocked
    }

    /// What the host must do after an input.
    public enum Action: Hashable, Sendable {
        /// Nothing visible changed.
        case none
        /// The combined state changed: send `{"type":"lock","locked":…}` to every
        /// client and an event naming `source` to subscribers.
        case broadcast(locked: Bool, source: LockSource)
    }

    /// The reply to `unlock`.
    public enum UnlockOutcome: Hashable, Sendable {
        /// The host is unlocked now (or was already).
        case unlocked(Action)
        /// The manual lock is off, but the probe still says the desktop is
        /// locked, so the host stays locked. The desktop's own lock always
        /// wins: a phone must not run commands on a locked desktop because
        /// someone typed `unlock` over SSH.
        case stillLockedByProbe
    }

    /// Whether `deckctl lock` is in force.
    public private(set) var manual: Bool
    /// The probe's last reading.
    public private(set) var probe: ProbeReading

    /// A state with the manual lock off and no probe reading.
    public init(manual: Bool = false, probe: ProbeReading = .none) {
        self.manual = manual
        self.probe = probe
    }

    /// True when any source says locked.
    public var isLocked: Bool { manual || probe == .locked }

    /// `deckctl lock`.
    public mutating func lock() -> Action {
        change(source: .manual) { $0.manual = true }
    }

    /// `deckctl unlock`: turns the manual lock off.
    public mutating func unlock() -> UnlockOutcome {
        let action = change(source: .manual) { $0.manual = false }
        return isLocked ? .stillLockedByProbe : .unlocked(action)
    }

    /// A reading from the lock probe.
    public mutating func probeReported(_ reading: ProbeReading) -> Action {
        change(source: .probe) { $0.probe = reading }
    }

    private mutating func change(source: LockSource, _ apply: (inout LockState) -> Void) -> Action {
        let before = isLocked
        apply(&self)
        return before == isLocked ? .none : .broadcast(locked: isLocked, source: source)
    }
}
