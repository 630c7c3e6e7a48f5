import DeckGestures
import Foundation
import Testing

/// README's push-to-talk example, kept compiling and correct here.
@Suite("README example")
struct ReadmeExampleTests {
    @Test func pushToTalkLearnsTheRealRelease() {
        var talk = GestureTracker(LongPressRecognizer(minimumDuration: 0.35, maximumDistance: 30)
            .sequenced(before: DragRecognizer(minimumDistance: 0, coordinateSpace: .global)))
        var log: [String] = []
        func startTalking() { log.append("start") }
        func stopTalking() { log.append("stop") }
        func feed(_ updates: [GestureUpdate<SequenceValue<Bool, DragValue>>]) {
            for update in updates {
                if case .changed(.second(true, nil)) = update.kind { startTalking() }
                if update.isFinal { stopTalking() }
            }
        }
        feed(talk.receive(.down(CGPoint(x: 10, y: 10), at: 0)))
        #expect(talk.deadline == 0.35)
        feed(talk.advance(to: 0.4))
        #expect(log == ["start"])
        feed(talk.receive(.move(CGPoint(x: 14, y: 10), at: 1)))
        #expect(log == ["start"], "drag samples do not start it again")
        feed(talk.receive(.up(CGPoint(x: 12, y: 10), at: 2)))
        #expect(log == ["start", "stop"])
    }
}
