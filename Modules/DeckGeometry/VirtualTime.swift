import Foundation

/// Instants of the virtual clock as GESTURES.md means them: a deadline at or
/// before an event's time fires before that event.
///
/// Times are sums of decimal seconds, which binary floating point rounds:
/// 0.12 + 0.45 is 0.5700000000000001, not 0.57. Compared bare, a hold that
/// began at 0.12 would be due *after* a lift at 0.57 (the button would run
/// instead of opening its settings), while one that began at 0 is due at a
/// lift at 0.45. Instants closer than ``tolerance`` are therefore one instant.
public enum VirtualTime {
    /// Two instants closer than this are the same one, in seconds: far below
    /// any touch's timing, far above the rounding of sums of seconds that
    /// stay below a million.
    public static let tolerance: TimeInterval = 1e-9

    /// Whether `deadline` has come at `now` (it is at or before it).
    public static func isDue(_ deadline: TimeInterval, at now: TimeInterval) -> Bool {
        deadline <= now + tolerance
    }

    /// Whether the span from `start` to `end` lasts at most `length`.
    public static func lasts(from start: TimeInterval, to end: TimeInterval, atMost length: TimeInterval) -> Bool {
        end - start <= length + tolerance
    }
}
