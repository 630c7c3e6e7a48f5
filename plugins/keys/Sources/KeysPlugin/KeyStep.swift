/// One thing an X11-style back end does to the keyboard, in order.
public enum KeyStep: Hashable, Sendable {
    /// Gives `keycode` the single symbol `keysym` (0 takes its symbols away: the restore).
    case remap(Keycode, Keysym)
    /// The key goes down.
    case down(Keycode)
    /// The key comes up.
    case up(Keycode)
    /// A spare is about to be lent again within one command: give clients a
    /// moment to read the keymap of its last keysym before it changes
    /// (a client reads the keymap when told it changed, and may be behind).
    case settle
}

/// Which keys this plugin holds down, counted: two buttons holding ctrl press
/// it once and release it when the second lets go; a tap never lifts a key a
/// hold still has down.
public struct HeldKeys: Hashable, Sendable {
    private var counts: [Keycode: Int] = [:]

    /// Nothing held.
    public init() {}

    /// Every keycode down now.
    public var keycodes: [Keycode] { counts.keys.sorted() }

    /// One more holder of `keycode`: the step to perform, if any.
    public mutating func press(_ keycode: Keycode) -> KeyStep? {
        counts[keycode, default: 0] += 1
        return counts[keycode] == 1 ? .down(keycode) : nil
    }

    /// One holder fewer: `up` once nobody holds it.
    public mutating func release(_ keycode: Keycode) -> KeyStep? {
        guard let count = counts[keycode] else { return nil }
        if count > 1 {
            counts[keycode] = count - 1
            return nil
        }
        counts[keycode] = nil
        return .up(keycode)
    }

    /// Lifts everything: the steps, highest keycode first.
    public mutating func releaseAll() -> [KeyStep] {
        defer { counts = [:] }
        return counts.keys.sorted(by: >).map { .up($0) }
    }
}
