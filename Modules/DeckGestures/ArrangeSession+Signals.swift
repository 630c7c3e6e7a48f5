import DeckGeometry
import Foundation

extension ArrangeSession {
    /// Turns what the touch's gesture reported into the deck's actions.
    mutating func apply(_ signals: [(time: TimeInterval, signal: TouchSignal)]) -> [ArrangeOutput] {
        var out: [ArrangeOutput] = []
        for (time, signal) in signals {
            guard let current = touch else { break }
            switch signal {
            case .held:
                guard let source = current.source, let placement = HoldHintPlacement(slot: source.index, in: grid, bubbleSize: hintSize)
                else { continue }
                touch?.held = true
                let hint = HoldHint(canMove: canLift(current), placement: placement)
                out.append(ArrangeOutput(time: time, action: .hold(source, hint: hint)))
            case .heldDrag(let drag):
                if current.lifted != nil {
                    out += follow(to: drag.location, at: time)
                } else if canLift(current), LengthThreshold.reaches(hypot(drag.translation.width, drag.translation.height), Self.liftDistance) {
                    out += lift(at: drag.location, time: time)
                }
            case .heldRelease(let drag):
                if let lifted = current.lifted {
                    out += drop(at: drag?.location ?? lifted.location, time: time)
                } else if !current.wasLifted, let source = current.source {
                    // Held and let go without moving it: the settings. (A
                    // touch whose button went back lifts and opens nothing.)
                    out.append(ArrangeOutput(time: time, action: .settings(source)))
                }
            case .swipe(let drag):
                pager.follow(drag)
            case .swipeEnded(let drag):
                if case .flipped(let page) = pager.release(drag) {
                    out.append(ArrangeOutput(time: time, action: .page(page)))
                }
            case .tap:
                guard let source = current.source else { continue }
                // A stray run while arranging would be a bug: taps open settings then.
                out.append(ArrangeOutput(time: time, action: current.arrangingAtStart ? .settings(source) : .run(source)))
            case .failed:
                if let source = current.source, current.lifted != nil { out += goBack(source, at: time) }
                if pager.isFollowing { pager.settle() }
            }
        }
        if touch?.gesture.isTouching == false {
            touch = nil
            releaseDeadline = nil
        }
        return out
    }

    /// Whether the held button may lift: a host that takes moves, and a
    /// touch that has not lifted it before (a lifted button that went back
    /// is not lifted again by the same touch).
    func canLift(_ touch: Touch) -> Bool {
        protocolLevel >= Self.movingProtocolLevel && !touch.wasLifted
    }

    private mutating func lift(at location: CGPoint, time: TimeInterval) -> [ArrangeOutput] {
        guard let source = touch?.source else { return [] }
        let target = slot(at: location)
        touch?.lifted = Lifted(location: location, target: target)
        touch?.wasLifted = true
        var out = [ArrangeOutput(time: time, action: .lift(source))]
        if !arranging {
            arranging = true
            out.append(ArrangeOutput(time: time, action: .arrange(true)))
        }
        out.append(ArrangeOutput(time: time, action: .target(target)))
        dwell.reset()
        return out + dwellStep(x: location.x, at: time)
    }

    private mutating func follow(to location: CGPoint, at time: TimeInterval) -> [ArrangeOutput] {
        touch?.lifted?.location = location
        return retarget(at: time) + dwellStep(x: location.x, at: time)
    }

    /// Fires the edge dwell's deadline with the finger where it last was.
    mutating func fireDwell(at time: TimeInterval) -> [ArrangeOutput] {
        guard let location = touch?.lifted?.location else {
            dwellDeadline = nil
            return []
        }
        return dwellStep(x: location.x, at: time)
    }

    private mutating func dwellStep(x: CGFloat, at time: TimeInterval) -> [ArrangeOutput] {
        let step = dwell.update(x: x, width: grid.size.width, now: time, page: page, pageCount: pageCount)
        dwellDeadline = step.deadline
        guard let newPage = step.newPage else { return [] }
        pager.show(page: newPage)
        return [ArrangeOutput(time: time, action: .page(newPage))] + retarget(at: time)
    }

    /// Reports the lifted button's target when it changed (a move, or a page flip).
    private mutating func retarget(at time: TimeInterval) -> [ArrangeOutput] {
        guard let lifted = touch?.lifted else { return [] }
        let target = slot(at: lifted.location)
        guard target != lifted.target else { return [] }
        touch?.lifted?.target = target
        return [ArrangeOutput(time: time, action: .target(target))]
    }

    private mutating func drop(at location: CGPoint, time: TimeInterval) -> [ArrangeOutput] {
        guard let source = touch?.source else { return [] }
        let target = slot(at: location)
        guard let target, target != source else { return goBack(source, at: time) }
        endLift()
        applyMove(from: source, to: target)
        return [ArrangeOutput(time: time, action: .move(from: source, to: target))]
    }

    mutating func goBack(_ source: SlotID, at time: TimeInterval) -> [ArrangeOutput] {
        endLift()
        return [ArrangeOutput(time: time, action: .back(source))]
    }

    private mutating func endLift() {
        touch?.lifted = nil
        dwell.reset()
        dwellDeadline = nil
    }

    /// The move on the session's own picture of the layout, as `DeckModel`
    /// does it: into an empty slot, or a swap; then one trailing empty page.
    private mutating func applyMove(from source: SlotID, to target: SlotID) {
        if !filled.contains(target) {
            filled.remove(source)
            filled.insert(target)
        }
        let lastFilled = filled.map(\.page).max() ?? -1
        pager.setPageCount(lastFilled + 2)
    }
}
