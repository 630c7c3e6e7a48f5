import DeckGeometry
import Foundation

/// A slot of the layout: a page and an index on it (both 0-based).
public struct SlotID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The page.
    public var page: Int
    /// The slot on the page.
    public var index: Int

    /// A slot.
    public init(page: Int, index: Int) {
        self.page = page
        self.index = index
    }

    /// Page first, then index.
    public static func < (lhs: SlotID, rhs: SlotID) -> Bool {
        (lhs.page, lhs.index) < (rhs.page, rhs.index)
    }

    /// `page/index`, as the host's messages write it.
    public var description: String { "\(page)/\(index)" }
}

/// What the app tells an ``ArrangeSession`` besides touches.
public enum AppEvent: Hashable, Sendable {
    /// The person pressed Done.
    case done
    /// The host locked (a `lock` broadcast with `locked: true`).
    case hostLocked
    /// The connection to the host dropped.
    case disconnected
    /// The app left the foreground (the system also takes the touch away).
    case background
    /// The platform says no finger is on the glass, but the touch's lift has
    /// not arrived (a web page whose touched element was redrawn away, a
    /// gesture the system took without a cancel). The session waits
    /// ``ArrangeSession/releaseGuard`` for the real lift, then ends the touch
    /// as cancelled.
    case released
}

/// An input of an ``ArrangeSession``.
public enum ArrangeEvent: Hashable, Sendable {
    /// A touch, in the grid's coordinate space.
    case touch(TouchEvent)
    /// The clock reached this time (a caller wakes the session at its ``ArrangeSession/deadline``).
    case tick(TimeInterval)
    /// Something the app learned, at this time.
    case app(AppEvent, at: TimeInterval)

    /// When it happened.
    public var time: TimeInterval {
        switch self {
        case .touch(let touch): touch.time
        case .tick(let time), .app(_, let time): time
        }
    }
}

/// The hint shown when a button is held.
public struct HoldHint: Hashable, Sendable {
    /// Whether dragging moves the button: the host speaks protocol level 7
    /// or later (a touch is held once, before it could have lifted).
    public var canMove: Bool
    /// Where the bubble goes.
    public var placement: HoldHintPlacement

    /// The bubble's words.
    public var text: String { canMove ? "release: settings, drag: move" : "release: settings" }
}

/// What the session says happened. The app performs it (runs a button,
/// opens settings, sends a move) and redraws from ``ArrangeSession/scene``.
public enum ArrangeAction: Hashable, Sendable {
    /// A button was held long enough: show the hint (and a haptic tick).
    case hold(SlotID, hint: HoldHint)
    /// The held button was lifted and follows the finger.
    case lift(SlotID)
    /// The slot the lifted button would land on now (nil: none, it would go back).
    case target(SlotID?)
    /// The visible page changed (a swipe or an edge dwell).
    case page(Int)
    /// The lifted button was dropped on another slot: apply and send the move.
    case move(from: SlotID, to: SlotID)
    /// The lifted button went back to its slot; nothing is sent.
    case back(SlotID)
    /// Open the button's settings.
    case settings(SlotID)
    /// Run the button on the host.
    case run(SlotID)
    /// Arrange mode turned on or off.
    case arrange(Bool)
}

/// An action at its instant.
public struct ArrangeOutput: Hashable, Sendable {
    /// When.
    public var time: TimeInterval
    /// What.
    public var action: ArrangeAction

    /// An output.
    public init(time: TimeInterval, action: ArrangeAction) {
        self.time = time
        self.action = action
    }
}

/// A session that cannot start, or a drop that cannot be applied.
public enum DeckGesturesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session's numbers do not fit together.
    case invalidSession(String)
    /// A drop's source slot holds no button in the device's copy of the layout.
    case emptySource(SlotID)
    /// The device's copy of the layout refused the move.
    case moveRefused(String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidSession(let reason): reason
        case .emptySource(let slot): "slot \(slot) holds no button to move; show the host's layout again"
        case .moveRefused(let reason): "the move cannot be applied: \(reason)"
        }
    }
}
