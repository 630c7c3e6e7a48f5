import DeckGeometry
import DeckModel
import Foundation

/// The device's arrange session for one grid: tap to run, hold for settings,
/// hold and drag to move (arrange mode with its wiggle), edge dwell paging,
/// page swipes — as a swift-nio style state machine. Touches (in the grid's
/// coordinate space), the virtual clock and app events go in; what happened
/// comes out as ``ArrangeOutput``s, and ``scene`` says what to draw.
///
/// Each touch gets its own recognizer, built when it begins, so the hold
/// time in force when a touch began stays for that touch (a change of
/// arrange mode during a touch takes effect for the next one).
public struct ArrangeSession: Sendable {
    /// Hold time on a button in normal mode, in seconds.
    public static let holdDuration: TimeInterval = 0.45
    /// Hold time in arrange mode, in seconds: a button moves almost at once.
    public static let arrangeHoldDuration: TimeInterval = 0.01
    /// Moving this far before the hold time makes the hold fail, in points.
    public static let holdSlop: CGFloat = 10
    /// After the hold, the drag lifts the button at this distance from where
    /// the drag part began, in points.
    public static let liftDistance: CGFloat = 10
    /// A page swipe starts at this distance, in points: more than the hold's
    /// slop, so on a button it wins only after the hold failed.
    public static let swipeDistance: CGFloat = 15
    /// The first protocol level whose hosts take `moveButton`.
    public static let movingProtocolLevel = 7
    /// How much a held button grows.
    public static let heldScale: CGFloat = 1.06
    /// How much a lifted button grows.
    public static let liftedScale: CGFloat = 1.1
    /// The hint bubble's size when the app does not give its own.
    public static let defaultHintSize = CGSize(width: 220, height: 36)
    /// After ``AppEvent/released``, how long the session waits for the lift
    /// that should follow, in seconds (seed 000's guard for a release whose
    /// end callback never comes). Then the touch ends as cancelled: a guessed
    /// release never moves, runs or opens anything.
    public static let releaseGuard: TimeInterval = 0.05

    /// The grid, in its own coordinate space.
    public let grid: DeckGrid
    /// The host's protocol level; below 7 a hold offers settings only.
    public var protocolLevel: Int
    /// The hold-hint bubble's size, for its placement.
    public var hintSize: CGSize
    /// The slots that hold a button.
    public internal(set) var filled: Set<SlotID>
    /// Whether arrange mode is on.
    public internal(set) var arranging: Bool

    var pager: SwipePager
    var dwell = EdgeDwellPager()
    var dwellDeadline: TimeInterval?
    /// When the release guard ends the touch, once armed by ``AppEvent/released``.
    var releaseDeadline: TimeInterval?
    var touch: Touch?
    var now: TimeInterval = -.infinity

    /// What belongs to the touch in progress.
    struct Touch: Sendable {
        var gesture: TouchGesture
        /// The button it began on (nil: an empty slot, a gap, outside).
        let source: SlotID?
        let downLocation: CGPoint
        /// Arrange mode when the touch began: decides its hold time and
        /// whether a tap opens settings.
        let arrangingAtStart: Bool
        var held = false
        var lifted: Lifted?
        /// It lifted its button once: it lifts nothing again, also when the
        /// button went back (Done, the lock, a lost connection).
        var wasLifted = false
    }

    /// The lifted button's finger and target.
    struct Lifted: Sendable {
        var location: CGPoint
        var target: SlotID?
    }

    /// A session on `grid` showing `page` of `pageCount`, with buttons in
    /// `filled`. Throws when the numbers do not fit together.
    public init(grid: DeckGrid, pageCount: Int, filled: Set<SlotID>, page: Int = 0, arranging: Bool = false,
                protocolLevel: Int, hintSize: CGSize = ArrangeSession.defaultHintSize) throws(DeckGesturesError) {
        guard pageCount >= 1 else { throw .invalidSession("a deck has at least one page, not \(pageCount)") }
        guard (0..<pageCount).contains(page) else {
            throw .invalidSession("page \(page) does not exist (the deck has pages 0 to \(pageCount - 1))")
        }
        if let wrong = filled.sorted().first(where: { !(0..<pageCount).contains($0.page) || !(0..<grid.slotsPerPage).contains($0.index) }) {
            throw .invalidSession("filled slot \(wrong) is outside \(pageCount) pages of \(grid.slotsPerPage) slots")
        }
        self.grid = grid
        self.protocolLevel = protocolLevel
        self.hintSize = hintSize
        self.filled = filled
        self.arranging = arranging
        pager = SwipePager(axis: .horizontal, pageLength: grid.size.width, gap: PageStrip.deckGap,
                           pageCount: pageCount, page: page, rule: .deck)
    }

    /// A session showing `layout` (its slots per page must match the grid's).
    public init(grid: DeckGrid, layout: DeckLayout, page: Int = 0, arranging: Bool = false,
                protocolLevel: Int) throws(DeckGesturesError) {
        guard layout.slotsPerPage == grid.slotsPerPage else {
            throw .invalidSession("the layout has \(layout.slotsPerPage) slots per page but the grid \(grid.slotsPerPage)")
        }
        try self.init(grid: grid, pageCount: layout.pages.count, filled: Self.filledSlots(of: layout),
                      page: min(page, layout.pages.count - 1), arranging: arranging, protocolLevel: protocolLevel)
    }

    /// The visible page.
    public var page: Int { pager.page }
    /// Pages in the deck.
    public var pageCount: Int { pager.pageCount }

    /// The next instant the session needs the clock (a hold, a tap timing
    /// out, an edge dwell flip): wake it then with `.tick`.
    public var deadline: TimeInterval? {
        [touch?.gesture.deadline, dwellDeadline, releaseDeadline].compactMap { $0 }.min()
    }

    /// Replaces what the session knows of the layout: the host's layout (or
    /// the device's optimistic copy) changed. The visible page stays where it
    /// is when it still exists.
    public mutating func show(_ layout: DeckLayout) {
        filled = Self.filledSlots(of: layout)
        pager.setPageCount(layout.pages.count)
    }

    /// Feeds one event. Every deadline at or before its time fires first, at
    /// its own instant; the outputs come in order.
    public mutating func handle(_ event: ArrangeEvent) -> [ArrangeOutput] {
        let time = max(event.time, now)
        var out = advance(to: time)
        switch event {
        case .touch(let touchEvent):
            out += receive(TouchEvent(time: time, phase: touchEvent.phase, location: touchEvent.location))
        case .tick:
            break
        case .app(let appEvent, _):
            out += receive(appEvent, at: time)
        }
        return out + advance(to: time)
    }

    /// Fires every deadline up to `time`, earliest first, each at its instant.
    private mutating func advance(to time: TimeInterval) -> [ArrangeOutput] {
        var out: [ArrangeOutput] = []
        while let due = deadline, VirtualTime.isDue(due, at: time) {
            let before = (touch?.gesture.deadline, dwellDeadline, releaseDeadline)
            if var current = touch, current.gesture.deadline == due {
                let signals = current.gesture.advance(to: due)
                touch = current
                out += apply(signals)
            } else if dwellDeadline == due {
                out += fireDwell(at: due)
            } else {
                out += fireReleaseGuard(at: due)
            }
            // Nothing moved on: stop rather than spin.
            if before == (touch?.gesture.deadline, dwellDeadline, releaseDeadline) { break }
        }
        now = max(now, time)
        return out
    }

    private mutating func receive(_ event: TouchEvent) -> [ArrangeOutput] {
        if touch == nil {
            // A move, lift or cancel without a touch in progress is noise.
            guard event.phase == .down else { return [] }
            touch = beginTouch(at: event.location)
        }
        guard var current = touch else { return [] }
        let signals = current.gesture.receive(event)
        touch = current
        return apply(signals)
    }

    private func beginTouch(at location: CGPoint) -> Touch {
        let source = slot(at: location).flatMap { filled.contains($0) ? $0 : nil }
        let hold = arranging ? Self.arrangeHoldDuration : Self.holdDuration
        return Touch(gesture: source == nil ? .swipeOnly : .button(holdDuration: hold), source: source,
                     downLocation: location, arrangingAtStart: arranging)
    }

    private mutating func receive(_ event: AppEvent, at time: TimeInterval) -> [ArrangeOutput] {
        if event == .released {
            // Only arms the guard: the real lift usually follows at once and wins.
            if touch != nil, releaseDeadline == nil { releaseDeadline = time + Self.releaseGuard }
            return []
        }
        var out: [ArrangeOutput] = []
        // GESTURES.md §2: only a lifted button goes back, and only its touch
        // lifts nothing again (`wasLifted`); a touch that is only held goes
        // on as it began ("a change of arrange mode … takes effect for the
        // next touch"), so a drag after it still lifts.
        if event == .background {
            // The system takes the touch away: every gesture fails, and a
            // lifted button goes back through the failure.
            out += receive(TouchEvent.cancel(at: time))
        } else if let source = touch?.source, touch?.lifted != nil {
            out += goBack(source, at: time)
        }
        if arranging {
            arranging = false
            out.append(ArrangeOutput(time: time, action: .arrange(false)))
        }
        return out
    }

    /// The release guard ran out with the touch still open: it ends as cancelled.
    private mutating func fireReleaseGuard(at time: TimeInterval) -> [ArrangeOutput] {
        releaseDeadline = nil
        guard touch != nil else { return [] }
        return receive(TouchEvent.cancel(at: time))
    }

    /// The slot under a point of the visible page (nil in gaps and outside).
    func slot(at location: CGPoint) -> SlotID? {
        grid.slot(at: location).map { SlotID(page: page, index: $0) }
    }

    static func filledSlots(of layout: DeckLayout) -> Set<SlotID> {
        Set(layout.placedButtons.map { SlotID(page: $0.page, index: $0.index) })
    }
}
