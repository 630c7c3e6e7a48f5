import DeckGeometry
import DeckGestures
import DeckTestSupport
import Foundation
import Testing

/// Random touches, ticks and app events against the session's promises:
/// nothing is lost or doubled, every lift ends in exactly one move or back,
/// nothing runs while arranging, time never goes backwards.
@Suite("arrange session under random input")
struct ArrangeSessionFuzzTests {
    @Test(arguments: 0..<4)
    func promisesHold(seed: UInt64) throws {
        var rng = SeededGenerator(seed: 0xDECC + seed)
        var seen: [String: Int] = [:]
        for _ in 0..<200 {
            let columns = Bool.random(using: &rng) ? 3 : 4
            let grid = try DeckGrid(size: columns == 3 ? CGSize(width: 390, height: 560) : CGSize(width: 800, height: 500), columns: columns)
            var filled: Set<SlotID> = []
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                filled.insert(SlotID(page: Int.random(in: 0...1, using: &rng), index: Int.random(in: 0..<12, using: &rng)))
            }
            var session = try ArrangeSession(grid: grid, pageCount: 3, filled: filled, arranging: Bool.random(using: &rng),
                                             protocolLevel: Int.random(in: 5...8, using: &rng))
            var time: TimeInterval = 0
            var fingers = 0
            var lifted: SlotID?
            var arrangingAtDown = session.arranging
            var lastTime = -TimeInterval.infinity
            var finger = CGPoint(x: 60, y: 60)
            for _ in 0..<120 {
                time += [0, 0.005, 0.03, 0.1, 0.3, 0.6].randomElement(using: &rng)!
                // Mostly a finger wandering a little, sometimes a jump across the grid.
                if Int.random(in: 0..<6, using: &rng) == 0 {
                    finger = CGPoint(x: CGFloat.random(in: -30...(grid.size.width + 30), using: &rng),
                                     y: CGFloat.random(in: -30...(grid.size.height + 30), using: &rng))
                } else {
                    finger.x += CGFloat.random(in: -12...12, using: &rng)
                    finger.y += CGFloat.random(in: -12...12, using: &rng)
                }
                let point = finger
                let event: ArrangeEvent
                switch Int.random(in: 0..<40, using: &rng) {
                case 0..<4:
                    if fingers == 0 { arrangingAtDown = session.arranging }
                    fingers += 1
                    event = .touch(.down(point, at: time))
                case 4..<30: event = .touch(.move(point, at: time))
                case 30..<35:
                    fingers = max(0, fingers - 1)
                    event = .touch(.up(point, at: time))
                case 35: event = .touch(.cancel(at: time)); fingers = 0
                case 36..<39: event = .tick(time)
                default: event = .app([AppEvent.done, .hostLocked, .disconnected, .background, .released].randomElement(using: &rng)!, at: time)
                }
                if case .app(.background, _) = event { fingers = 0 }
                let before = session.filled.count
                for output in session.handle(event) {
                    seen["\(output.action)".prefix { $0 != "(" }.description, default: 0] += 1
                    #expect(output.time >= lastTime && output.time <= time + 1e-9)
                    lastTime = output.time
                    switch output.action {
                    case .lift(let slot):
                        #expect(lifted == nil, "a second lift before the first one ended")
                        lifted = slot
                    case .move(let from, _), .back(let from):
                        #expect(lifted == from, "a drop of a button that was not lifted")
                        lifted = nil
                    case .run:
                        #expect(!arrangingAtDown, "a run from a touch that began in arrange mode")
                    default:
                        break
                    }
                }
                #expect(session.filled.count == before, "a move lost or doubled a button")
                #expect((0..<session.pageCount).contains(session.page))
                if session.scene.lifted != nil { #expect(lifted != nil) }
            }
        }
        // The input really exercised the session (not a test that cannot fail).
        for action in ["hold", "lift", "target", "move", "back", "settings", "run", "arrange", "page"] {
            #expect(seen[action, default: 0] > 0, "no \(action) in \(seen)")
        }
    }
}
