import DeckGestures
import Foundation
import Testing

@Suite("long press")
struct LongPressTests {
    @Test func endsAtItsDurationWithTheFingerStillDown() {
        let updates = drive(LongPressRecognizer(minimumDuration: 0.5), [.down(0, 0, at: 0), .tick(0.71), .up(0, 0, at: 0.91)])
        #expect(shape(updates) == ["changed@0", "ended@0.5"])
        #expect(updates.map(\.value) == [true, true])
    }

    @Test func aLiftAtItsInstantComesAfterTheEndWhereverTheTouchBegan() {
        // 0.07 + 0.5 is 0.5700000000000001 in binary floating point: still the instant of the lift at 0.57.
        let updates = drive(LongPressRecognizer(minimumDuration: 0.5), [.down(0, 0, at: 0.07), .up(0, 0, at: 0.57)])
        #expect(shape(updates) == ["changed@0.07", "ended@0.57"])
    }

    @Test func deadlineFiresBeforeALaterMove() {
        // The move at 0.61 is past the 10 points, but the press already ended at 0.5.
        let updates = drive(LongPressRecognizer(), [.down(0, 0, at: 0), .move(30, 0, at: 0.61), .up(30, 0, at: 0.7)])
        #expect(shape(updates) == ["changed@0", "ended@0.5"])
    }

    @Test func movingTheMaximumDistanceFirstFails() {
        let updates = drive(LongPressRecognizer(minimumDuration: 0.45, maximumDistance: 10),
                            [.down(0, 0, at: 0), .move(6, 8, at: 0.21), .tick(1.01), .up(6, 8, at: 1.21)])
        #expect(shape(updates) == ["changed@0", "failed@0.21"], "6-8-10: exactly the maximum distance fails")
    }

    @Test func stayingJustInsideTheDistanceSucceeds() {
        let updates = drive(LongPressRecognizer(minimumDuration: 0.45), [.down(0, 0, at: 0), .move(5.9, 8, at: 0.21), .tick(0.51)])
        #expect(shape(updates) == ["changed@0", "ended@0.45"])
    }

    @Test func liftingFirstFailsWithoutAnEnd() {
        let updates = drive(LongPressRecognizer(), [.down(0, 0, at: 0), .up(0, 0, at: 0.49), .tick(2.01)])
        #expect(shape(updates) == ["changed@0", "failed@0.49"])
    }

    @Test func aSecondFingerFailsIt() {
        let updates = drive(LongPressRecognizer(), [.down(0, 0, at: 0), .down(50, 50, at: 0.21), .tick(1.01), .up(0, 0, at: 1.1), .up(50, 50, at: 1.2)])
        #expect(shape(updates) == ["changed@0", "failed@0.21"])
    }

    @Test func aNewTouchStartsAfresh() {
        let updates = drive(LongPressRecognizer(), [
            .down(0, 0, at: 0), .up(0, 0, at: 0.11), .down(0, 0, at: 1), .tick(1.61), .up(0, 0, at: 1.7),
        ])
        #expect(shape(updates) == ["changed@0", "failed@0.11", "changed@1", "ended@1.5"])
    }
}

@Suite("drag")
struct DragTests {
    @Test func becomesActiveAtItsMinimumDistance() {
        let updates = drive(DragRecognizer(minimumDistance: 10, coordinateSpace: .global), [
            .down(0, 0, at: 0), .move(4, 3, at: 0.05), .move(6, 8, at: 0.1), .move(2, 1, at: 0.15), .up(2, 1, at: 0.2),
        ])
        #expect(shape(updates) == ["changed@0.1", "changed@0.15", "ended@0.2"], "stays active when the finger comes back")
        #expect(updates[0].value?.translation == CGSize(width: 6, height: 8))
        #expect(updates[2].value?.location == CGPoint(x: 2, y: 1))
        #expect(updates[2].value?.startLocation == .zero)
    }

    @Test func activatesAtItsDistanceThoughTheSubtractionRoundsBelowIt() {
        // 64.1 - 49.1 is 14.999999999999993 in binary floating point: still 15 points.
        let updates = drive(DragRecognizer(minimumDistance: 15, coordinateSpace: .global),
                            [.down(49.1, 0, at: 0), .move(64.1, 0, at: 0.1), .up(64.1, 0, at: 0.2)])
        #expect(shape(updates) == ["changed@0.1", "ended@0.2"])
    }

    @Test func liftingBeforeActiveFails() {
        let updates = drive(DragRecognizer(minimumDistance: 10, coordinateSpace: .global),
                            [.down(0, 0, at: 0), .move(4, 3, at: 0.05), .up(40, 3, at: 0.1)])
        #expect(shape(updates) == ["failed@0.1"])
    }

    @Test func zeroDistanceReportsTheTouchDown() {
        let updates = drive(DragRecognizer(minimumDistance: 0, coordinateSpace: .global), [.down(10, 20, at: 0), .up(10, 20, at: 0.31)])
        #expect(shape(updates) == ["changed@0", "ended@0.31"])
        #expect(updates[0].value?.translation == .zero)
    }

    @Test func velocityLooksBackATenthOfASecond() throws {
        let updates = drive(DragRecognizer(minimumDistance: 0, coordinateSpace: .global), [
            .down(0, 0, at: 0), .move(10, 0, at: 0.1), .move(40, -20, at: 0.2), .move(42, -20, at: 0.2), .move(42, -20, at: 0.2),
            .up(43, -20, at: 0.3),
        ])
        let values = updates.compactMap(\.value)
        // The repeated sample (same place, same instant) is the same value, so it is not delivered again.
        #expect(values.count == 5)
        #expect(abs(values[1].velocity.width - 100) < 1e-6)
        #expect(abs(values[2].velocity.width - 300) < 1e-6)
        #expect(abs(values[2].velocity.height + 200) < 1e-6)
        #expect(abs(values[3].velocity.width - 320) < 1e-6, "from the sample 0.1 s back, not from the one at the same instant")
        #expect(abs(values[4].velocity.width - 30) < 1e-6)
        // Predictions look 0.25 s ahead at the current velocity.
        let fast = values[2]
        #expect(abs(fast.predictedEndLocation.x - 115) < 1e-6)
        #expect(abs(fast.predictedEndTranslation.height + 70) < 1e-6)
    }

    @Test func aLiftAtTheLastPlaceKeepsAFlicksVelocity() {
        let updates = drive(DragRecognizer(minimumDistance: 15, coordinateSpace: .global), [
            .down(200, 0, at: 0), .move(185, 0, at: 0.02), .move(140, 0, at: 0.04), .up(140, 0, at: 0.05),
        ])
        let end = updates.last?.value
        #expect(end.map { abs($0.velocity.width + 1200) < 1e-6 } == true)
        #expect(end.map { abs($0.predictedEndTranslation.width + 360) < 1e-6 } == true)
    }

    @Test func aFingerThatStoppedHasNoVelocity() {
        let updates = drive(DragRecognizer(minimumDistance: 0, coordinateSpace: .global), [
            .down(0, 0, at: 0), .move(50, 0, at: 0.05), .up(50, 0, at: 0.61),
        ])
        #expect(updates.last?.value?.velocity == .zero)
    }

    @Test func namedSpaceSubtractsItsOrigin() {
        let updates = drive(DragRecognizer(minimumDistance: 0, coordinateSpace: .named(origin: CGPoint(x: 20, y: 100))),
                            [.down(30, 130, at: 0), .move(50, 130, at: 0.1)])
        #expect(updates.last?.value?.location == CGPoint(x: 30, y: 30))
        #expect(updates.last?.value?.startLocation == CGPoint(x: 10, y: 30))
    }

    @Test func localSpaceMeasuresFromTheViewAtEachEvent() {
        var tracker = GestureTracker(DragRecognizer(minimumDistance: 0, coordinateSpace: .local))
        _ = tracker.receive(.down(CGPoint(x: 120, y: 120), at: 0), viewOrigin: CGPoint(x: 100, y: 100))
        // The view moved by 30 between the events: the finger's 30 points cancel out.
        let updates = tracker.receive(.move(CGPoint(x: 120, y: 150), at: 0.1), viewOrigin: CGPoint(x: 100, y: 130))
        #expect(updates.first?.value?.translation == .zero)
    }

    @Test func cancelFailsAndNothingEndsAfterIt() {
        let updates = drive(DragRecognizer(minimumDistance: 0, coordinateSpace: .global), [
            .down(0, 0, at: 0), .move(30, 0, at: 0.1), .cancel(at: 0.2), .move(40, 0, at: 0.3), .up(40, 0, at: 0.4),
        ])
        #expect(shape(updates) == ["changed@0", "changed@0.1", "failed@0.2"])
    }
}

@Suite("tap")
struct TapTests {
    @Test func endsAtTheLift() {
        let updates = drive(TapRecognizer(), [.down(0, 0, at: 0), .move(30, 30, at: 0.1), .up(31, 31, at: 0.2)])
        #expect(shape(updates) == ["ended@0.2"])
    }

    @Test func failsAsSoonAsItGoesFurtherThanTheSlop() {
        let updates = drive(TapRecognizer(), [.down(0, 0, at: 0), .move(27, 36.01, at: 0.1), .up(0, 0, at: 0.2)])
        #expect(shape(updates) == ["failed@0.1"])
    }

    @Test func failsWhenTheFingerStaysDownTooLong() {
        let updates = drive(TapRecognizer(), [.down(0, 0, at: 0), .tick(0.76), .up(0, 0, at: 0.81)])
        #expect(shape(updates) == ["failed@0.75"])
        #expect(shape(drive(TapRecognizer(), [.down(0, 0, at: 0), .up(0, 0, at: 0.74)])) == ["ended@0.74"])
    }

    @Test func doubleTapNeedsTheSecondTouchSoonAndNear() {
        #expect(shape(drive(TapRecognizer(count: 2), [
            .down(0, 0, at: 0), .up(0, 0, at: 0.1), .down(3, 3, at: 0.31), .up(3, 3, at: 0.4),
        ])) == ["ended@0.4"])
        #expect(shape(drive(TapRecognizer(count: 2), [
            .down(0, 0, at: 0), .up(0, 0, at: 0.1), .tick(0.46), .down(3, 3, at: 0.5), .up(3, 3, at: 0.6),
        ])) == ["failed@0.45"])
        #expect(shape(drive(TapRecognizer(count: 2), [
            .down(0, 0, at: 0), .up(0, 0, at: 0.1), .down(90, 3, at: 0.31), .up(90, 3, at: 0.4),
        ])) == ["failed@0.31"])
    }
}
