import DeckGestures
import Foundation

/// One step of a scripted touch sequence for a test.
enum Step {
    case down(CGFloat, CGFloat, at: TimeInterval)
    case move(CGFloat, CGFloat, at: TimeInterval)
    case up(CGFloat, CGFloat, at: TimeInterval)
    case cancel(at: TimeInterval)
    case tick(TimeInterval)
}

/// Runs `steps` through a tracker for `recognizer` and returns every update.
func drive<R: GestureRecognizer>(_ recognizer: R, _ steps: [Step], viewOrigin: CGPoint = .zero) -> [GestureUpdate<R.Value>] {
    var tracker = GestureTracker(recognizer)
    var out: [GestureUpdate<R.Value>] = []
    for step in steps {
        switch step {
        case let .down(x, y, t): out += tracker.receive(.down(CGPoint(x: x, y: y), at: t), viewOrigin: viewOrigin)
        case let .move(x, y, t): out += tracker.receive(.move(CGPoint(x: x, y: y), at: t), viewOrigin: viewOrigin)
        case let .up(x, y, t): out += tracker.receive(.up(CGPoint(x: x, y: y), at: t), viewOrigin: viewOrigin)
        case let .cancel(t): out += tracker.receive(.cancel(at: t))
        case let .tick(t): out += tracker.advance(to: t)
        }
    }
    return out
}

/// A compact description of updates for readable expectations:
/// `"changed@0"`, `"ended@0.5"`, `"failed@0.1"`.
func shape<V>(_ updates: [GestureUpdate<V>]) -> [String] {
    updates.map { update in
        let name = switch update.kind {
        case .changed: "changed"
        case .ended: "ended"
        case .failed: "failed"
        }
        let rounded = (update.time * 1000).rounded() / 1000
        let time = rounded == rounded.rounded() ? String(Int(rounded)) : "\(rounded)"
        return "\(name)@\(time)"
    }
}
