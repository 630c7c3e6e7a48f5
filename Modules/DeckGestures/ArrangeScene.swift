import DeckGeometry
import Foundation

/// Everything a view needs to draw the deck at one moment, derived from the
/// session's state (nothing here is stored twice).
public struct ArrangeScene: Hashable, Sendable {
    /// The lifted button, drawn over the grid under the finger.
    public struct LiftedTile: Hashable, Sendable {
        /// The slot it came from (drawn empty meanwhile).
        public var source: SlotID
        /// Its centre in the grid's space: it keeps the offset from the
        /// finger it had when the touch began.
        public var center: CGPoint
        /// ``ArrangeSession/liftedScale``.
        public var scale: CGFloat
    }

    /// The visible page.
    public var page: Int
    /// Pages in the deck.
    public var pageCount: Int
    /// The page strip's one offset (x): the page's resting offset plus a
    /// swipe's translation, rubber-banded past the ends.
    public var stripOffset: CGFloat
    /// True while the strip follows a finger (set it without animation);
    /// false when it should animate to ``stripOffset``.
    public var stripFollowsFinger: Bool
    /// Arrange mode (the Done button shows, tiles wiggle).
    public var arranging: Bool
    /// The held button (drawn at ``ArrangeSession/heldScale``), until it lifts or the touch ends.
    public var held: SlotID?
    /// The hint bubble, while a button is held and not dragged.
    public var hint: HoldHint?
    /// The lifted button.
    public var lifted: LiftedTile?
    /// The slot the lifted button would land on (outlined).
    public var target: SlotID?
    /// The slots holding a button.
    public var filled: Set<SlotID>

    /// Whether the tile in `slot` wiggles: in arrange mode, a button, not the lifted one.
    public func wiggles(_ slot: SlotID) -> Bool {
        arranging && filled.contains(slot) && slot != lifted?.source
    }

    /// The tile's tilt in degrees at `time` (zero when it does not wiggle or
    /// with reduce motion).
    public func rotation(of slot: SlotID, at time: TimeInterval, reduceMotion: Bool) -> Double {
        wiggles(slot) ? Wiggle.angle(at: time, slot: slot.index, reduceMotion: reduceMotion) : 0
    }

    /// The tile's scale in the grid (the lifted tile is drawn separately).
    public func scale(of slot: SlotID) -> CGFloat {
        slot == held ? ArrangeSession.heldScale : 1
    }
}

extension ArrangeSession {
    /// What to draw now.
    public var scene: ArrangeScene {
        var lifted: ArrangeScene.LiftedTile?
        if let touch, let source = touch.source, let finger = touch.lifted?.location,
           let cell = grid.frame(ofSlot: source.index) {
            lifted = ArrangeScene.LiftedTile(
                source: source,
                center: CGPoint(x: finger.x + cell.midX - touch.downLocation.x, y: finger.y + cell.midY - touch.downLocation.y),
                scale: Self.liftedScale)
        }
        let held = touch.flatMap { $0.held && $0.lifted == nil && !$0.wasLifted ? $0.source : nil }
        var hint: HoldHint?
        if let held, let touch, let placement = HoldHintPlacement(slot: held.index, in: grid, bubbleSize: hintSize) {
            hint = HoldHint(canMove: canLift(touch), placement: placement)
        }
        return ArrangeScene(page: page, pageCount: pageCount, stripOffset: pager.offset, stripFollowsFinger: pager.isFollowing,
                            arranging: arranging, held: held, hint: hint, lifted: lifted, target: touch?.lifted?.target,
                            filled: filled)
    }
}
