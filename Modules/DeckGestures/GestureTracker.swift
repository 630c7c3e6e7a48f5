import DeckGeometry
import Foundation

/// Drives one recognizer from raw touches and a virtual clock — the part of
/// a UI framework that a headless engine has to do itself.
///
/// - Deadlines fire at their own instant: before a touch at time t, every
///   deadline at or before t fires first, each stamped with its own time;
///   deadlines that a touch creates and that are already due fire right after it.
/// - Fingers are counted: a second finger fails every live gesture (like a
///   cancel), and the rest of that multi-finger touch is ignored.
/// - `changed` is not repeated when the value equals the one last delivered.
public struct GestureTracker<Recognizer: GestureRecognizer>: Sendable {
    /// The recognizer in its current state.
    public private(set) var recognizer: Recognizer
    /// The latest instant seen.
    public private(set) var now: TimeInterval = -.infinity

    private var fingers = 0
    /// A second finger came; ignore touches until every finger lifted.
    private var spoiled = false
    private var lastChanged: Recognizer.Value?
    private var viewOrigin = CGPoint.zero

    /// A tracker for `recognizer`.
    public init(_ recognizer: Recognizer) {
        self.recognizer = recognizer
    }

    /// The recognizer's next deadline: a caller with a clock wakes it then
    /// with ``advance(to:)``.
    public var deadline: TimeInterval? { recognizer.deadline }

    /// Whether a finger is on the glass.
    public var isTouching: Bool { fingers > 0 }

    /// Feeds one touch. `viewOrigin` is where the gesture's view is at this
    /// instant, for `local` coordinate spaces. A time earlier than the last
    /// one seen is taken as the last one.
    public mutating func receive(_ event: TouchEvent, viewOrigin: CGPoint? = nil) -> [GestureUpdate<Recognizer.Value>] {
        if let viewOrigin { self.viewOrigin = viewOrigin }
        let time = max(event.time, now)
        var out = advance(to: time)
        if let kind = inputKind(for: event) {
            out += deliver(GestureInput(time: time, kind: kind, viewOrigin: self.viewOrigin))
        }
        return out + advance(to: time)
    }

    /// Moves the clock to `time`, firing every deadline up to it in order,
    /// each at its own instant.
    public mutating func advance(to time: TimeInterval) -> [GestureUpdate<Recognizer.Value>] {
        var out: [GestureUpdate<Recognizer.Value>] = []
        while let due = recognizer.deadline, VirtualTime.isDue(due, at: time) {
            let at = max(due, now)
            out += deliver(GestureInput(time: at, kind: .clock, viewOrigin: viewOrigin))
            // A recognizer that kept the same deadline after it fired would
            // spin here forever; stop rather than hang.
            if recognizer.deadline == due { break }
        }
        now = max(now, time)
        return out
    }

    /// The input a touch means for the recognizer, counting fingers.
    private mutating func inputKind(for event: TouchEvent) -> GestureInput.Kind? {
        switch event.phase {
        case .down:
            fingers += 1
            if fingers == 1 {
                spoiled = false
                return .down(event.location)
            }
            spoiled = true
            return .cancel
        case .move:
            return fingers == 1 && !spoiled ? .move(event.location) : nil
        case .up:
            guard fingers > 0 else { return nil }
            fingers -= 1
            return fingers == 0 && !spoiled ? .up(event.location) : nil
        case .cancel:
            fingers = 0
            spoiled = false
            return .cancel
        }
    }

    private mutating func deliver(_ input: GestureInput) -> [GestureUpdate<Recognizer.Value>] {
        now = max(now, input.time)
        var out: [GestureUpdate<Recognizer.Value>] = []
        for update in recognizer.receive(input) {
            switch update.kind {
            case .changed(let value):
                if value == lastChanged { continue }
                lastChanged = value
            case .ended, .failed:
                lastChanged = nil
            }
            out.append(update)
        }
        return out
    }
}
