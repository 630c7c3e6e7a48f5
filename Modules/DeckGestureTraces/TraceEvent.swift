import DeckGestures
import Foundation

/// One line of a trace's `events`.
public struct TraceEvent: Hashable, Sendable {
    /// What happens.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case down, move, up, cancel, tick
        /// Deck traces only: the person pressed Done.
        case done
        /// Deck traces only: the host locked.
        case lock
        /// Deck traces only: the connection to the host dropped.
        case disconnect
        /// Deck traces only: the app left the foreground.
        case background
        /// Deck traces only: the platform says the finger is gone though no lift came.
        case released

        /// Kinds every trace may use.
        static let touchKinds: Set<Kind> = [.down, .move, .up, .cancel, .tick]
    }

    /// Seconds.
    public var time: TimeInterval
    /// What.
    public var kind: Kind
    /// Where, for `down`, `move` and `up`.
    public var location: CGPoint

    /// Reads `events[index]`, allowing only `kinds`.
    init(_ value: TraceValue, index: Int, kinds: Set<Kind>) throws(TraceError) {
        let object = try TraceObject(value, at: "events[\(index)]")
        time = try object.number("t")
        guard time >= 0 else { throw TraceError("events[\(index)].t must not be negative") }
        let named = object.keys.filter { $0 != "t" }
        guard named.count == 1, let key = named.first, let kind = Kind(rawValue: key), kinds.contains(kind) else {
            let choices = Kind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ", ")
            throw TraceError("events[\(index)] needs \"t\" and exactly one of \(choices) (found: \(named.joined(separator: ", ")))")
        }
        self.kind = kind
        switch kind {
        case .down, .move, .up:
            location = try object.pair(key)
        default:
            guard object[key] == .bool(true) else {
                throw TraceError("events[\(index)].\(key) must be true")
            }
            location = .zero
        }
    }

    /// The event as a touch, or nil for a tick or an app event.
    var touchEvent: TouchEvent? {
        switch kind {
        case .down: .down(location, at: time)
        case .move: .move(location, at: time)
        case .up: .up(location, at: time)
        case .cancel: .cancel(at: time)
        default: nil
        }
    }
}
