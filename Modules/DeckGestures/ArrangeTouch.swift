import Foundation

/// The gesture of a touch on a filled slot, built from the primitives the
/// way a SwiftUI tile would be: the long press sequenced before a
/// zero-distance drag (the only way to learn the real release after a hold)
/// has precedence over the page swipe, which has precedence over the tap.
/// The swipe's 15 points exceed the press's 10, so a swipe only wins once the
/// hold has failed; while a button is held or lifted, swipes never show.
typealias ButtonGesture = ExclusiveRecognizer<
    SequenceRecognizer<LongPressRecognizer, DragRecognizer>,
    ExclusiveRecognizer<DragRecognizer, TapRecognizer>
>

/// What a touch's gesture means for the session, whichever gesture it is.
enum TouchSignal: Equatable, Sendable {
    /// The hold time passed with the finger still down and close.
    case held
    /// The finger moved after the hold (the drag part's value).
    case heldDrag(DragValue)
    /// The finger lifted after the hold.
    case heldRelease(DragValue?)
    /// A page swipe moved.
    case swipe(DragValue)
    /// A page swipe was released.
    case swipeEnded(DragValue)
    /// A tap.
    case tap
    /// Everything failed or was cancelled.
    case failed
}

/// The gesture of one touch: a button's, or only a page swipe on an empty
/// slot, a gap or outside the grid.
enum TouchGesture: Sendable {
    case button(GestureTracker<ButtonGesture>)
    case swipe(GestureTracker<DragRecognizer>)

    /// The gesture for a touch that began on a button, holding for `holdDuration`.
    static func button(holdDuration: TimeInterval) -> TouchGesture {
        // Locations are in the grid's own space: it does not move with the
        // drag, so translations are true (a `local` space would halve them).
        let grid = GestureCoordinateSpace.named(origin: .zero)
        let pressDrag = LongPressRecognizer(minimumDuration: holdDuration, maximumDistance: ArrangeSession.holdSlop)
            .sequenced(before: DragRecognizer(minimumDistance: 0, coordinateSpace: grid))
        let swipe = DragRecognizer(minimumDistance: ArrangeSession.swipeDistance, coordinateSpace: grid)
        return .button(GestureTracker(pressDrag.exclusively(before: swipe.exclusively(before: TapRecognizer()))))
    }

    /// The gesture for a touch anywhere else: page swipes only.
    static var swipeOnly: TouchGesture {
        .swipe(GestureTracker(DragRecognizer(minimumDistance: ArrangeSession.swipeDistance, coordinateSpace: .named(origin: .zero))))
    }

    var deadline: TimeInterval? {
        switch self {
        case .button(let tracker): tracker.deadline
        case .swipe(let tracker): tracker.deadline
        }
    }

    var isTouching: Bool {
        switch self {
        case .button(let tracker): tracker.isTouching
        case .swipe(let tracker): tracker.isTouching
        }
    }

    mutating func receive(_ event: TouchEvent) -> [(time: TimeInterval, signal: TouchSignal)] {
        switch self {
        case .button(var tracker):
            let updates = tracker.receive(event)
            self = .button(tracker)
            return updates.compactMap(Self.signal)
        case .swipe(var tracker):
            let updates = tracker.receive(event)
            self = .swipe(tracker)
            return updates.compactMap(Self.signal)
        }
    }

    mutating func advance(to time: TimeInterval) -> [(time: TimeInterval, signal: TouchSignal)] {
        switch self {
        case .button(var tracker):
            let updates = tracker.advance(to: time)
            self = .button(tracker)
            return updates.compactMap(Self.signal)
        case .swipe(var tracker):
            let updates = tracker.advance(to: time)
            self = .swipe(tracker)
            return updates.compactMap(Self.signal)
        }
    }

    private static func signal(_ update: GestureUpdate<ButtonGesture.Value>) -> (time: TimeInterval, signal: TouchSignal)? {
        let signal: TouchSignal? = switch update.kind {
        case .changed(.first(.first)): nil
        case .changed(.first(.second(_, nil))): .held
        case .changed(.first(.second(_, let drag?))): .heldDrag(drag)
        case .ended(.first(.second(_, let drag))): .heldRelease(drag)
        case .ended(.first(.first)): .heldRelease(nil)
        case .changed(.second(.first(let drag))): .swipe(drag)
        case .ended(.second(.first(let drag))): .swipeEnded(drag)
        case .changed(.second(.second)): nil
        case .ended(.second(.second)): .tap
        case .failed: .failed
        }
        return signal.map { (update.time, $0) }
    }

    private static func signal(_ update: GestureUpdate<DragValue>) -> (time: TimeInterval, signal: TouchSignal)? {
        switch update.kind {
        case .changed(let drag): (update.time, .swipe(drag))
        case .ended(let drag): (update.time, .swipeEnded(drag))
        case .failed: (update.time, .failed)
        }
    }
}
