import DeckGestures
import Foundation
import Testing

@Suite("sequence")
struct SequenceTests {
    let pressThenRelease = LongPressRecognizer(minimumDuration: 0.35, maximumDistance: 30)
        .sequenced(before: DragRecognizer(minimumDistance: 0, coordinateSpace: .global))

    @Test func reportsTheRealReleaseOfAHeldFinger() {
        let updates = drive(pressThenRelease, [.down(10, 10, at: 0), .move(14, 10, at: 1.01), .move(20, 10, at: 1.51), .up(20, 10, at: 2.01)])
        #expect(shape(updates) == ["changed@0", "changed@0.35", "changed@1.01", "changed@1.51", "ended@2.01"])
        #expect(updates[0].value == .first(true))
        #expect(updates[1].value == .second(true, nil))
        guard case .second(true, let drag?) = updates[2].value else { Issue.record("no drag value"); return }
        #expect(drag.startLocation == CGPoint(x: 14, y: 10), "the second part starts at the first touch after the first ended")
        #expect(drag.translation == .zero)
        guard case .second(true, let last?) = updates[4].value else { Issue.record("no drag value"); return }
        #expect(last.translation == CGSize(width: 6, height: 0))
    }

    @Test func aLiftAsTheFirstTouchEndsTheDragAtOnce() {
        let updates = drive(pressThenRelease, [.down(10, 10, at: 0), .tick(0.51), .up(12, 10, at: 0.61)])
        #expect(shape(updates) == ["changed@0", "changed@0.35", "ended@0.61"], "no changed before the end")
        guard case .second(true, let drag?) = updates[2].value else { Issue.record("no drag value"); return }
        #expect(drag.startLocation == CGPoint(x: 12, y: 10))
        #expect(drag.translation == .zero)
    }

    @Test func aFailedFirstPartFailsTheSequence() {
        let updates = drive(pressThenRelease, [.down(10, 10, at: 0), .up(10, 10, at: 0.21), .tick(1.01)])
        #expect(shape(updates) == ["changed@0", "failed@0.21"])
    }

    @Test func aFailedSecondPartFailsTheSequenceWithoutAnEnd() {
        let sequence = LongPressRecognizer(minimumDuration: 0.2).sequenced(before: DragRecognizer(minimumDistance: 20, coordinateSpace: .global))
        let updates = drive(sequence, [.down(0, 0, at: 0), .move(1, 0, at: 0.31), .move(5, 0, at: 0.41), .up(5, 0, at: 0.51)])
        #expect(shape(updates) == ["changed@0", "changed@0.2", "failed@0.51"])
    }

    @Test func aCancelWhileWaitingForTheSecondPartFails() {
        let updates = drive(pressThenRelease, [.down(0, 0, at: 0), .tick(0.41), .cancel(at: 0.51), .up(0, 0, at: 0.61)])
        #expect(shape(updates) == ["changed@0", "changed@0.35", "failed@0.51"])
    }

    @Test func twoTapsInSequence() {
        let updates = drive(TapRecognizer().sequenced(before: TapRecognizer()), [
            .down(0, 0, at: 0), .up(0, 0, at: 0.1), .down(0, 0, at: 0.51), .up(0, 0, at: 0.61),
        ])
        #expect(shape(updates) == ["changed@0.1", "ended@0.61"])
        #expect(updates.last?.value == .second(TapRecognizer.Value(), TapRecognizer.Value()))
    }
}

@Suite("simultaneous")
struct SimultaneousTests {
    @Test func reportsBothAndEndsWhenBothFinished() {
        let both = LongPressRecognizer(minimumDuration: 0.3).simultaneously(with: DragRecognizer(minimumDistance: 10, coordinateSpace: .global))
        let updates = drive(both, [.down(0, 0, at: 0), .tick(0.31), .move(20, 0, at: 0.41), .up(20, 0, at: 0.51)])
        // The press's end at 0.3 does not change the combined value, so it is not reported.
        #expect(shape(updates) == ["changed@0", "changed@0.41", "ended@0.51"])
        #expect(updates[0].value == SimultaneousValue(first: true, second: nil))
        #expect(updates[2].value?.first == true, "the long press ended and keeps its value")
        #expect(updates[2].value?.second?.translation == CGSize(width: 20, height: 0))
    }

    @Test func aFailedChildIsNilAndTheOtherCanStillEnd() {
        let both = LongPressRecognizer(minimumDuration: 0.3).simultaneously(with: DragRecognizer(minimumDistance: 10, coordinateSpace: .global))
        let updates = drive(both, [.down(0, 0, at: 0), .move(20, 0, at: 0.11), .up(30, 0, at: 0.21)])
        #expect(shape(updates) == ["changed@0", "changed@0.11", "ended@0.21"])
        #expect(updates[2].value?.first == nil)
        #expect(updates[2].value?.second?.location == CGPoint(x: 30, y: 0))
    }

    @Test func failsWhenBothFailed() {
        let both = LongPressRecognizer().simultaneously(with: DragRecognizer(minimumDistance: 10, coordinateSpace: .global))
        #expect(shape(drive(both, [.down(0, 0, at: 0), .up(1, 0, at: 0.11)])) == ["changed@0", "failed@0.11"])
    }
}

@Suite("exclusive")
struct ExclusiveTests {
    @Test func theFirstHasPrecedence() {
        let either = LongPressRecognizer(minimumDuration: 0.3).exclusively(before: TapRecognizer())
        let updates = drive(either, [.down(0, 0, at: 0), .up(0, 0, at: 0.41)])
        #expect(shape(updates) == ["changed@0", "ended@0.3"], "the tap that would have ended at the lift is not reported")
        #expect(updates.last?.value == .first(true))
    }

    @Test func aHeldBackEndIsReportedWhenTheFirstFails() {
        // The tap ends at 0.11 while the drag still might start; the drag
        // fails at the same lift, first, so the tap's end is reported.
        let either = DragRecognizer(minimumDistance: 15, coordinateSpace: .global).exclusively(before: TapRecognizer())
        let updates = drive(either, [.down(0, 0, at: 0), .up(3, 0, at: 0.11)])
        #expect(shape(updates) == ["ended@0.11"])
        #expect(updates.last?.value == .second(TapRecognizer.Value()))
    }

    @Test func theSecondIsReportedOnlyAfterTheFirstFailed() {
        let either = LongPressRecognizer(minimumDuration: 0.45).exclusively(before: DragRecognizer(minimumDistance: 5, coordinateSpace: .global))
        let updates = drive(either, [
            .down(0, 0, at: 0), .move(6, 0, at: 0.1), .move(12, 0, at: 0.2), .move(20, 0, at: 0.3), .up(20, 0, at: 0.4),
        ])
        // The drag is active from 0.1 but silent until the press fails at 0.2.
        #expect(shape(updates) == ["changed@0", "changed@0.2", "changed@0.3", "ended@0.4"])
        #expect(updates[1].value.map { if case .second = $0 { true } else { false } } == true)
    }

    @Test func failsWhenBothFailed() {
        let either = LongPressRecognizer().exclusively(before: TapRecognizer())
        #expect(shape(drive(either, [.down(0, 0, at: 0), .move(60, 0, at: 0.1), .up(60, 0, at: 0.2)])) == ["changed@0", "failed@0.1"])
    }

    @Test func aSecondFingerFailsEverything() {
        let either = LongPressRecognizer().exclusively(before: TapRecognizer())
        #expect(shape(drive(either, [.down(0, 0, at: 0), .down(9, 9, at: 0.1), .up(9, 9, at: 0.2), .up(0, 0, at: 0.3)]))
            == ["changed@0", "failed@0.1"])
    }
}

@Suite("tracker, gesture state and callbacks")
struct TrackerTests {
    @Test func deadlinesFireInOrderEachAtItsOwnInstant() {
        let drag = DragRecognizer(minimumDistance: 0)
        let both = LongPressRecognizer(minimumDuration: 0.21).sequenced(before: drag)
            .simultaneously(with: LongPressRecognizer(minimumDuration: 0.5).sequenced(before: drag))
        // One tick far ahead: both deadlines fire, in order, each at its own time.
        let updates = drive(both, [.down(0, 0, at: 0), .tick(5)])
        #expect(shape(updates) == ["changed@0", "changed@0.21", "changed@0.5"])
        #expect(updates.last?.value == SimultaneousValue(first: .second(true, nil), second: .second(true, nil)))
    }

    @Test func anUnchangedValueIsNotReportedAgain() {
        // The press ending at 0.21 leaves the combined value as it was
        // ({first: true, second: nil}), so only the final end follows.
        let both = LongPressRecognizer(minimumDuration: 0.21).simultaneously(with: TapRecognizer())
        let updates = drive(both, [.down(0, 0, at: 0), .tick(5)])
        #expect(shape(updates) == ["changed@0", "ended@0.75"])
        #expect(updates.last?.value == SimultaneousValue(first: true, second: nil))
    }

    @Test func aZeroDurationPressEndsAtTheTouchDown() {
        #expect(shape(drive(LongPressRecognizer(minimumDuration: 0), [.down(0, 0, at: 0.31)])) == ["changed@0.31", "ended@0.31"])
    }

    @Test func timeNeverRunsBackwards() {
        var tracker = GestureTracker(LongPressRecognizer(minimumDuration: 0.5))
        _ = tracker.receive(.down(.zero, at: 1))
        let late = tracker.receive(.up(.zero, at: 0.5))
        #expect(shape(late) == ["failed@1"])
    }

    @Test func gestureStateFollowsChangesAndResetsAtTheEnd() {
        var holding = GestureState(initial: false)
        var tracker = GestureTracker(LongPressRecognizer(minimumDuration: 0.3).sequenced(before: DragRecognizer(minimumDistance: 0)))
        let set: (SequenceValue<Bool, DragValue>, inout Bool) -> Void = { value, state in
            if case .second(true, _) = value { state = true }
        }
        holding.update(with: tracker.receive(.down(.zero, at: 0)), body: set)
        #expect(holding.value == false)
        holding.update(with: tracker.advance(to: 0.31), body: set)
        #expect(holding.value == true)
        holding.update(with: tracker.receive(.up(.zero, at: 0.41)), body: set)
        #expect(holding.value == false)
        holding.update(with: tracker.receive(.down(.zero, at: 1)), body: set)
        holding.update(with: tracker.advance(to: 1.31), body: set)
        holding.update(with: tracker.receive(.cancel(at: 1.41)), body: set)
        #expect(holding.value == false, "a cancel resets it too")
    }

    @Test func callbacksNeverEndAfterACancel() {
        final class Log: @unchecked Sendable { var lines: [String] = [] } // test-local, used on one thread only
        let log = Log()
        let callbacks = GestureCallbacks<DragValue>(
            onChanged: { log.lines.append("changed \($0.translation.width)") },
            onEnded: { _ in log.lines.append("ended") },
            onFailed: { log.lines.append("failed") })
        var tracker = GestureTracker(DragRecognizer(minimumDistance: 0, coordinateSpace: .global))
        for event in [TouchEvent.down(.zero, at: 0), .move(CGPoint(x: 5, y: 0), at: 0.1), .cancel(at: 0.2), .up(CGPoint(x: 9, y: 0), at: 0.3)] {
            callbacks(tracker.receive(event))
        }
        #expect(log.lines == ["changed 0.0", "changed 5.0", "failed"])
    }
}
