import Foundation

/// Lengths compared with the contract's thresholds (the hold's 10 points, the
/// swipe's 15, the tap's 45, a third of the page), as ``VirtualTime`` compares
/// instants: touches given in decimal points subtract with rounding (64.1 −
/// 54.1 is 9.999999999999993), so a finger that moved exactly 10 points must
/// not count as 9.99. Lengths less than ``tolerance`` apart are one length.
public enum LengthThreshold {
    /// Two lengths closer than this are the same one, in points.
    public static let tolerance: CGFloat = 1e-9

    /// Whether `length` is at least `threshold` ("moves 10 points", "≥ 15").
    public static func reaches(_ length: CGFloat, _ threshold: CGFloat) -> Bool {
        length >= threshold - tolerance
    }

    /// Whether `length` is beyond `limit` ("further than 45 points", "beyond width/3").
    public static func exceeds(_ length: CGFloat, _ limit: CGFloat) -> Bool {
        length > limit + tolerance
    }
}
