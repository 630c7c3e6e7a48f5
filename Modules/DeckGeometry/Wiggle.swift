import Foundation

/// The arrange-mode wiggle: each button tilts back and forth, computed from
/// the time rather than run as a repeating animation, so it stops dead the
/// moment arrange mode ends.
public enum Wiggle {
    /// The largest tilt either way, in degrees.
    public static let amplitude: Double = 1.5
    /// One full back-and-forth, in seconds.
    public static let period: TimeInterval = 0.25

    /// The slot's phase as a fraction of a period, in [0, 1). Different for
    /// every slot of a page (multiples of an irrational number never repeat),
    /// so the page does not tilt as one block.
    public static func phase(ofSlot slot: Int) -> Double {
        let fraction = (Double(slot) * 0.618_033_988_749_895).truncatingRemainder(dividingBy: 1)
        return fraction < 0 ? fraction + 1 : fraction
    }

    /// The tilt in degrees of the button in `slot` at `time`; zero when the
    /// person asked the system to reduce motion.
    public static func angle(at time: TimeInterval, slot: Int, reduceMotion: Bool) -> Double {
        guard !reduceMotion else { return 0 }
        return amplitude * sin((time / period + phase(ofSlot: slot)) * 2 * .pi)
    }
}
