import DeckGestures
import Foundation
import Testing

/// README's push-to-talk example, kept compiling and correct here.
@Suite("README example")
struct ReadmeExampleTests {
    @Test func pushToTalkLearnsTheRealRelease() {
        var talk = GestureTracker(LongPressRecognizer(minimumDuration: 0.35, maximumDistance: 30)
            .sequenced(before: DragRecognizer(minimumDistance: 0, coordinateSpace: .global)))
        var talking = false
        var log: [Bool] = []
        func feed(_ updates: [GestureUpdate<SequenceValue<Bool, DragValue>>]) {
            for update in updates {
                switch update.kind {
                case .changed(.second(true, _)) where !talking: talking = true
                case .ended, .failed: talking = false
                default: break
                }
                log.append(talking)
            }
        }
        feed(talk.receive(.down(CGPoint(x: 10, y: 10), at: 0)))
        #expect(talk.deadline == 0.35)
        feed(talk.advance(to: 0.4))
        #expect(talking)
        feed(talk.receive(.up(CGPoint(x: 12, y: 10), at: 2)))
        #expect(!talking)
        #expect(log == [false, true, false])
    }
}
